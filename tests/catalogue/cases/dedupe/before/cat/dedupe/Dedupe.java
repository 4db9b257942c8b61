package cat.dedupe;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The customer ids of an import, each kept once, in the order they were first seen. */
public final class Dedupe {
    private Dedupe() {
    }

    public static List<Integer> firstOccurrences(int[] ids) {
        Set<Integer> seen = new HashSet<>();
        List<Integer> unique = new ArrayList<>();
        for (int id : ids) {
            if (seen.add(id)) {
                unique.add(id);
            }
        }
        return unique;
    }
}
