package cat.linked;

import java.util.LinkedList;
import java.util.List;

/** The weekly report's moving 7-day sales totals. */
public final class Sales {
    private Sales() {
    }

    public static long[] weeklyTotals(int[] daily) {
        List<Integer> days = new LinkedList<>();
        for (int amount : daily) {
            days.add(Math.max(amount, 0)); // refunds are booked elsewhere
        }
        long[] totals = new long[days.size()];
        long window = 0;
        for (int i = 0; i < days.size(); i++) {
            window += days.get(i);
            if (i >= 7) {
                window -= days.get(i - 7);
            }
            totals[i] = window;
        }
        return totals;
    }
}
