package bench;

/**
 * Not a kernel: the exact, thread-safe floor for bench.Lcg (one path per method: the invocation count is
 * the whole count), written by hand as in floor-exact/Fib.java.
 */
public final class Lcg {
    static final Thread OWNER = Thread.currentThread();
    static final long[] INVOCATIONS = new long[2];
    private long seed;

    public Lcg(long seed) {
        this.seed = seed;
        record(0);
    }

    public double nextDouble() {
        seed = seed * 6364136223846793005L + 1442695040888963407L;
        double result = (seed >>> 11) * 0x1.0p-53;
        record(1);
        return result;
    }

    private static void record(int method) {
        if (Thread.currentThread() == OWNER) {
            INVOCATIONS[method]++;
        } else {
            throw new IllegalStateException("only the owner thread is timed");
        }
    }
}
