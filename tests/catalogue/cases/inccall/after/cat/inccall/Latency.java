package cat.inccall;

/** The health page's latency spread: slowest minus fastest request of a batch, in milliseconds. */
public final class Latency {
    private Latency() {
    }

    public static int spread(int[] millis) {
        int[] sorted = Sorting.insertionSorted(millis);
        return sorted[sorted.length - 1] - sorted[0];
    }
}
