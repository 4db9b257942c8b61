package cx.linked;

import java.util.*;

/** The total of n daily sales, read back by index. */
public final class Sales {
    private Sales() {
    }

    public static long total(int n) {
        List<Integer> days = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            days.add((i * 31) % 500);
        }
        long sum = 0;
        for (int i = 0; i < days.size(); i++) {
            sum += days.get(i);
        }
        return sum;
    }
}
