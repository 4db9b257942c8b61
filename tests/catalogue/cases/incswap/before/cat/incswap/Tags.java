package cat.incswap;

import java.util.HashSet;
import java.util.Set;

/** Helpers for a post's tag ids. */
final class Tags {
    private Tags() {
    }

    static int distinct(int[] tags) {
        Set<Integer> seen = new HashSet<>();
        int n = 0;
        for (int tag : tags) {
            if (seen.add(tag)) {
                n++;
            }
        }
        return n;
    }
}
