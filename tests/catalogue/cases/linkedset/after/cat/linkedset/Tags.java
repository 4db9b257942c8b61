package cat.linkedset;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/** The blog's tag cloud: how many distinct tags its posts use, ignoring case. */
public final class Tags {
    private Tags() {
    }

    public static int distinctTags(String[] tags) {
        Set<String> seen = new LinkedHashSet<>();
        for (String tag : tags) {
            seen.add(tag.toLowerCase(Locale.ROOT));
        }
        return seen.size();
    }
}
