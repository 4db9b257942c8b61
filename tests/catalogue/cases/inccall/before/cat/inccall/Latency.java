package cat.inccall;

/** The health page's latency spread: slowest minus fastest request of a batch, in milliseconds. */
public final class Latency {
    private Latency() {
    }

    public static int spread(int[] millis) {
        int fastest = Integer.MAX_VALUE;
        int slowest = Integer.MIN_VALUE;
        for (int m : millis) {
            fastest = Math.min(fastest, m);
            slowest = Math.max(slowest, m);
        }
        return slowest - fastest;
    }
}
