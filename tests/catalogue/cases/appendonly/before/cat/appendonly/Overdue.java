package cat.appendonly;

import java.util.ArrayList;
import java.util.List;

/** The reminder run: the amounts of the invoices more than 30 days late, collected, then summed. */
public final class Overdue {
    private Overdue() {
    }

    public static long overdueTotal(int[] daysLate, int[] amounts) {
        List<Integer> overdue = new ArrayList<>();
        for (int i = 0; i < daysLate.length; i++) {
            if (daysLate[i] > 30) {
                overdue.add(amounts[i]);
            }
        }
        long total = 0;
        for (int amount : overdue) {
            total += amount;
        }
        return total;
    }
}
