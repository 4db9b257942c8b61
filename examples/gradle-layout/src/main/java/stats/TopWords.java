package stats;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.google.common.base.Splitter;

/** The k most frequent words of a text, most frequent first (ties: the word seen first). */
public final class TopWords {
    private TopWords() {
    }

    public static List<String> top(String text, int k) {
        Map<String, Integer> counts = new HashMap<>();
        List<String> order = new ArrayList<>();
        for (String word : Splitter.on(' ').omitEmptyStrings().split(text)) {
            if (counts.merge(word, 1, Integer::sum) == 1) {
                order.add(word);
            }
        }
        List<String> out = new ArrayList<>();
        while (out.size() < k && !order.isEmpty()) {
            int best = 0;
            for (int i = 1; i < order.size(); i++) {
                if (counts.get(order.get(i)) > counts.get(order.get(best))) {
                    best = i;
                }
            }
            out.add(order.remove(best));
        }
        return out;
    }
}
