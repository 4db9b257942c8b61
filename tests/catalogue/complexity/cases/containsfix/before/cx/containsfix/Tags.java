package cx.containsfix;

import java.util.*;

/** The distinct tags (all of one length) of n tagged posts (each tag about twice), in the order first used. */
public final class Tags {
    private Tags() {
    }

    public static int distinct(int n) {
        List<String> tags = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String tag = "t" + (100000 + (i * 7919) % (n / 2 + 1));
            if (!tags.contains(tag)) {
                tags.add(tag);
            }
        }
        return tags.size();
    }
}
