package cat.retainfix;

import java.util.ArrayList;
import java.util.List;

/** How many of a campaign's recipients also opened last month's newsletter. */
public final class Audience {
    private Audience() {
    }

    public static int returning(List<Integer> recipients, List<Integer> openedBefore) {
        List<Integer> both = new ArrayList<>(recipients);
        both.retainAll(openedBefore);
        return both.size();
    }
}
