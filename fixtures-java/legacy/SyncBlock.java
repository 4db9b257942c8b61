package legacy;

/** synchronized block and synchronized method in an old class file (no stack maps). */
public class SyncBlock {
    private final Object lock = new Object();
    private int count;

    public int increment(int k) {
        synchronized (lock) {
            count += k;
            if (count > 1000) {
                count = 0;
            }
        }
        return count;
    }

    public synchronized int get() {
        return count;
    }
}
