package cx.extract;

/** The total of an invoice of n lines, each with a quantity, a unit price and a discount band. */
public final class Invoice {
    private Invoice() {
    }

    public static long totalCents(int n) {
        long total = 0;
        for (int i = 0; i < n; i++) {
            int quantity = i % 7 + 1;
            int unit = 100 + (i * 13) % 900;
            long cents = (long) quantity * unit;
            if (quantity >= 5) {
                cents -= cents / 10;
            }
            total += cents;
        }
        return total;
    }
}
