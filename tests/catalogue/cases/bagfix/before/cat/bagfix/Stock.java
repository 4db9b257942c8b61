package cat.bagfix;

import java.util.ArrayList;
import java.util.List;

/** The order lines a warehouse cannot serve: each line takes one unit of the stock list. */
public final class Stock {
    private Stock() {
    }

    public static List<String> missing(List<String> ordered, List<String> stock) {
        List<String> left = new ArrayList<>(stock);
        List<String> out = new ArrayList<>();
        for (String item : ordered) {
            if (!left.remove(item)) {
                out.add(item);
            }
        }
        return out;
    }
}
