package cat.extract;

/** The shipping cost of an order: a rate per started kilogram, and a surcharge for remote areas. */
public final class Shipping {
    private Shipping() {
    }

    public static long costCents(int[] itemGrams, boolean remote) {
        long grams = 0;
        for (int weight : itemGrams) {
            grams += weight;
        }
        long kilos = (grams + 999) / 1000;
        long cost = 499 + kilos * 120;
        if (remote) {
            cost = Math.max(cost + cost / 10, 999);
        }
        return cost;
    }
}
