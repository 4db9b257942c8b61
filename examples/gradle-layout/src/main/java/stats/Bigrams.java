package stats;

import java.util.List;
import java.util.Locale;

import com.google.common.base.CharMatcher;
import com.google.common.base.Splitter;
import com.google.common.collect.LinkedHashMultiset;
import com.google.common.collect.Multiset;

/** The pair of neighbouring words seen most often in a text (ties: the pair seen first), or null. */
public final class Bigrams {
    private Bigrams() {
    }

    public static String mostCommon(String text) {
        List<String> words = Splitter.on(CharMatcher.whitespace()).omitEmptyStrings()
                .splitToList(text.toLowerCase(Locale.ROOT));
        Multiset<String> pairs = LinkedHashMultiset.create();
        for (int i = 1; i < words.size(); i++) {
            pairs.add(words.get(i - 1) + " " + words.get(i));
        }
        String best = null;
        int bestCount = 0;
        for (Multiset.Entry<String> pair : pairs.entrySet()) {
            if (pair.getCount() > bestCount) {
                best = pair.getElement();
                bestCount = pair.getCount();
            }
        }
        return best;
    }
}
