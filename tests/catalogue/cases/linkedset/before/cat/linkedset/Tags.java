package cat.linkedset;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/** The blog's tag cloud: how many distinct tags its posts use, ignoring case. */
public final class Tags {
    private Tags() {
    }

    public static int distinctTags(String[] tags) {
        Set<String> seen = new HashSet<>();
        for (String tag : tags) {
            seen.add(tag.toLowerCase(Locale.ROOT));
        }
        return seen.size();
    }
}
