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
        List<Integer> both = new ArrayList<>(thisMonth);
        both.retainAll(lastMonth);
        return both.size();
    }
}
