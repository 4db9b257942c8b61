package cx.growing;

import java.util.ArrayList;
import java.util.List;

/** Splits n order ids into the even and the odd ones and returns the sizes' difference. */
public final class Partition {
    private Partition() {
    }

    public static int split(int n) {
        List<Integer> even = new ArrayList<>(n);
        List<Integer> odd = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int id = (int) ((i * 7919L) % 100003);
            if (id % 2 == 0) {
                even.add(id);
            } else {
                odd.add(id);
            }
        }
        return even.size() - odd.size();
    }
}
