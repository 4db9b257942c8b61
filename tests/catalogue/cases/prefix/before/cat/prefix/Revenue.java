package cat.prefix;

/** The dashboard's revenue over date ranges: daily revenue, and many [from, to) ranges of days. */
public final class Revenue {
    private Revenue() {
    }

    public static long[] rangeTotals(int[] daily, int[] from, int[] to) {
        long[] prefix = new long[daily.length + 1];
        for (int day = 0; day < daily.length; day++) {
            prefix[day + 1] = prefix[day] + daily[day];
        }
        long[] totals = new long[from.length];
        for (int q = 0; q < from.length; q++) {
            totals[q] = prefix[to[q]] - prefix[from[q]];
        }
        return totals;
    }
}
