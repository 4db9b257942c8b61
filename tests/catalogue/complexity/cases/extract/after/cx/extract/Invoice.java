package cx.extract;

/** The total of an invoice of n lines, each with a quantity, a unit price and a discount band. */
public final class Invoice {
    private Invoice() {
    }

    public static long totalCents(int n) {
        long total = 0;
        for (int i = 0; i < n; i++) {
            total += lineCents(i % 7 + 1, 100 + (i * 13) % 900);
        }
        return total;
    }

    private static long lineCents(int quantity, int unit) {
        long cents = (long) quantity * unit;
        if (quantity >= 5) {
            cents -= cents / 10;
        }
        return cents;
    }
}
