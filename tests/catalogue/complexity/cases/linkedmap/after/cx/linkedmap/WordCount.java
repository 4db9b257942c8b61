package cx.linkedmap;

import java.util.*;

/** Counts the words (all of one length) of a text of n words and returns how many occur more than once. */
public final class WordCount {
    private WordCount() {
    }

    public static int distinctWords(int n) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            counts.merge("w" + (100000 + (i * 7919) % (n / 2 + 1)), 1, Integer::sum);
        }
        int repeated = 0;
        for (int count : counts.values()) {
            if (count > 1) {
                repeated++;
            }
        }
        return repeated;
    }
}
