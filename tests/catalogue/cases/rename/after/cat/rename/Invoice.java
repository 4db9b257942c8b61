package cat.rename;

/** Invoice totals for the billing run. */
public final class Invoice {
    private Invoice() {
    }

    // Each line's amount, less its percentage discount rounded down to the cent, summed over the invoice.
    // Amounts are in cents; a line's discount never exceeds its amount.
    public static long totalDue(int[] amounts, int[] discountPercent) {
        long total = 0;
        for (int line = 0; line < amounts.length; line++) {
            int amount = amounts[line];
            int discount = amount * discountPercent[line] / 100;
            total += amount - discount;
        }
        return total;
    }
}
