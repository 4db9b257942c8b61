package cx.precheck;

/** A histogram of n latencies in 10 ms buckets; returns the fullest bucket's count. */
public final class Histogram {
    private Histogram() {
    }

    public static int buckets(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative sample count: " + n);
        }
        int[] latencies = new int[n];
        for (int i = 0; i < n; i++) {
            latencies[i] = (int) ((i * 7919L) % 500);
        }
        int[] counts = new int[50];
        for (int latency : latencies) {
            counts[latency / 10]++;
        }
        int fullest = 0;
        for (int count : counts) {
            fullest = Math.max(fullest, count);
        }
        return fullest;
    }
}
