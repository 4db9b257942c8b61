package cx.retain;

import java.util.*;

/** The visitors of this month (n of them) who also visited last month (n others, half the same). */
public final class Audience {
    private Audience() {
    }

    public static int returning(int n) {
        List<Integer> thisMonth = new ArrayList<>();
        List<Integer> lastMonth = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            thisMonth.add((int) ((i * 7919L) % (2L * n)));
            lastMonth.add((int) ((i * 104729L) % (2L * n)));
        }
        Set<Integer> before = new HashSet<>(lastMonth);
        List<Integer> both = new ArrayList<>();
        for (int visitor : thisMonth) {
            if (before.contains(visitor)) {
                both.add(visitor);
            }
        }
        return both.size();
    }
}
