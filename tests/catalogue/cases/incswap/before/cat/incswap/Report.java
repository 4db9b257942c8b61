package cat.incswap;

/** A line of the tag report: how many distinct tags, and how many uses, a post carries. */
public final class Report {
    private Report() {
    }

    public static String summary(int[] tags) {
        return Tags.distinct(tags) + " distinct of " + tags.length;
    }
}
