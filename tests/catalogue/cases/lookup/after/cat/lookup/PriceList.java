package cat.lookup;

import java.util.TreeMap;
import java.util.Map;

/** Prices the lines of an order against the price list, by ISBN. */
public final class PriceList {
    private PriceList() {
    }

    public static long orderTotal(String[] isbns, int[] cents, String[] orderLines) {
        Map<String, Integer> centsByIsbn = new TreeMap<>();
        for (int i = 0; i < isbns.length; i++) {
            centsByIsbn.put(isbns[i], cents[i]);
        }
        long total = 0;
        for (String isbn : orderLines) {
            Integer price = centsByIsbn.get(isbn);
            if (price != null) {
                total += price;
            }
        }
        return total;
    }
}
