package cat.search;

/** Looks order numbers up in the day's ledger, which is sorted by order number. */
public final class Ledger {
    private Ledger() {
    }

    public static int indexOf(long[] sortedOrders, long order) {
        int lo = 0;
        int hi = sortedOrders.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long value = sortedOrders[mid];
            if (value < order) {
                lo = mid + 1;
            } else if (value > order) {
                hi = mid - 1;
            } else {
                return mid;
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
