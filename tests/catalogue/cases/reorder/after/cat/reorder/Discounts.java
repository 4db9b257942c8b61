package cat.reorder;

/** The checkout's basket discount: the best percentage whose spending threshold the basket reaches. */
public final class Discounts {
    private Discounts() {
    }

    static long subtotal(int[] basketCents) {
        long sum = 0;
        for (int cents : basketCents) {
            sum += cents;
        }
        return sum;
    }

    /**
     * The best discount the basket earns.
     *
     * @param basketCents the price of each item in the basket, in cents
     * @param thresholdCents each discount's minimum spend, in cents
     * @param percents each discount's percentage, in the order of {@code thresholdCents}
     * @return the highest percentage whose threshold the basket's subtotal reaches, or 0
     */
    public static int bestPercent(int[] basketCents, int[] thresholdCents, int[] percents) {
        long subtotal = subtotal(basketCents);
        int best = 0;
        for (int i = 0; i < thresholdCents.length; i++) {
            if (subtotal >= thresholdCents[i] && percents[i] > best) {
                best = percents[i];
            }
        }
        return best;
    }
}
