package cat.search;

/** Looks order numbers up in the day's ledger, which is sorted by order number. */
public final class Ledger {
    private Ledger() {
    }

    public static int indexOf(long[] sortedOrders, long order) {
        for (int i = 0; i < sortedOrders.length; i++) {
            if (sortedOrders[i] == order) {
                return i;
            }
        }
        return -1;
    }

    public static int countKnown(long[] sortedOrders, long[] queries) {
        int known = 0;
        for (long order : queries) {
            if (indexOf(sortedOrders, order) >= 0) {
                known++;
            }
        }
        return known;
    }
}
