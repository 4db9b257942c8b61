package cx.stream;

import java.util.ArrayList;
import java.util.List;

/** The weight of the parcels over 2 kg among n parcels. */
public final class Parcels {
    private Parcels() {
    }

    public static long heavyGrams(int n) {
        List<Integer> grams = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            grams.add(100 + (i * 7919) % 4000);
        }
        return grams.stream().filter(g -> g > 2000).mapToLong(Integer::longValue).sum();
    }
}
