package cx.treemap;

import java.util.*;

/** A price table of n books by ISBN (all of one width), then an order of n lines priced from it. */
public final class PriceList {
    private PriceList() {
    }

    public static long orderTotal(int n) {
        Map<String, Integer> price = new HashMap<>();
        for (int i = 0; i < n; i++) {
            price.put("isbn-" + (1000000 + i), 500 + i % 97);
        }
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += price.get("isbn-" + (1000000 + (i * 31L) % n));
        }
        return sum;
    }
}
