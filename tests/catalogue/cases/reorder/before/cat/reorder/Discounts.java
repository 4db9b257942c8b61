package cat.reorder;

/** The checkout's basket discount: the best percentage whose spending threshold the basket reaches. */
public final class Discounts {
    private Discounts() {
    }

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

    static long subtotal(int[] basketCents) {
        long sum = 0;
        for (int cents : basketCents) {
            sum += cents;
        }
        return sum;
    }
}
