package cat.inchelper;

import java.util.Arrays;

/** The booking page's summary line: how many bookings, in how many distinct time slots. */
public final class Bookings {
    private Bookings() {
    }

    public static String summary(int[] slots) {
        int[] sorted = slots.clone();
        Arrays.sort(sorted);
        return slots.length + " bookings in " + distinctSorted(sorted) + " slots";
    }

    private static int distinctSorted(int[] sorted) {
        int distinct = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (i == 0 || sorted[i] != sorted[i - 1]) {
                distinct++;
            }
        }
        return distinct;
    }
}
