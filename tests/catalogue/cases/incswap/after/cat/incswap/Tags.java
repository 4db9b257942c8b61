package cat.incswap;

import java.util.ArrayList;
import java.util.List;

/** Helpers for a post's tag ids. */
final class Tags {
    private Tags() {
    }

    static int distinct(int[] tags) {
        List<Integer> seen = new ArrayList<>();
        int n = 0;
        for (int tag : tags) {
            if (!seen.contains(tag)) {
                seen.add(tag);
                n++;
            }
        }
        return n;
    }
}
