package cx.contains;

import java.util.*;

/** The distinct customer ids of an import of n rows (each id about twice), in the order first seen. */
public final class Customers {
    private Customers() {
    }

    public static int firstSeen(int n) {
        Set<Integer> seen = new HashSet<>();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int id = (int) ((i * 7919L) % (n / 2 + 1));
            if (seen.add(id)) {
                order.add(id);
            }
        }
        return order.size();
    }
}
