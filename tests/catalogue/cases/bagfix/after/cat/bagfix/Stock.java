package cat.bagfix;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The order lines a warehouse cannot serve: each line takes one unit of the stock list. */
public final class Stock {
    private Stock() {
    }

    public static List<String> missing(List<String> ordered, List<String> stock) {
        Map<String, int[]> left = new HashMap<>();
        for (String item : stock) {
            int[] units = left.get(item);
            if (units == null) {
                left.put(item, new int[] {1});
            } else {
                units[0]++;
            }
        }
        List<String> out = new ArrayList<>();
        for (String item : ordered) {
            int[] units = left.get(item);
            if (units == null || units[0] == 0) {
                out.add(item);
            } else {
                units[0]--;
            }
        }
        return out;
    }
}
