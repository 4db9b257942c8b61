package cx.copycall;

import java.util.Arrays;

/** Copies n readings into a snapshot twice their size and returns the last reading. */
public final class Snapshot {
    private Snapshot() {
    }

    public static int latest(int n) {
        int[] readings = new int[n];
        for (int i = 0; i < n; i++) {
            readings[i] = (int) ((i * 7919L) % 1000);
        }
        int[] snapshot = Arrays.copyOf(readings, 2 * n);
        return snapshot[n - 1];
    }
}
