package cat.rename;

/** Invoice totals for the billing run. */
public final class Invoice {
    private Invoice() {
    }

    public static long totalDue(int[] amounts, int[] pct) {
        long t = 0;
        for (int i = 0; i < amounts.length; i++) {
            int a = amounts[i];
            int d = a * pct[i] / 100;
            t += a - d;
        }
        return t;
    }
}
