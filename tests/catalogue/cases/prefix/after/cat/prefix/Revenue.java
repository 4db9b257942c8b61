package cat.prefix;

/** The dashboard's revenue over date ranges: daily revenue, and many [from, to) ranges of days. */
public final class Revenue {
    private Revenue() {
    }

    public static long[] rangeTotals(int[] daily, int[] from, int[] to) {
        long[] totals = new long[from.length];
        for (int q = 0; q < from.length; q++) {
            long sum = 0;
            for (int day = from[q]; day < to[q]; day++) {
                sum += daily[day];
            }
            totals[q] = sum;
        }
        return totals;
    }
}
