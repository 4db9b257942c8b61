package cat.dedupe;

import java.util.ArrayList;
import java.util.List;

/** The customer ids of an import, each kept once, in the order they were first seen. */
public final class Dedupe {
    private Dedupe() {
    }

    public static List<Integer> firstOccurrences(int[] ids) {
        List<Integer> unique = new ArrayList<>();
        for (int id : ids) {
            if (!unique.contains(id)) {
                unique.add(id);
            }
        }
        return unique;
    }
}
