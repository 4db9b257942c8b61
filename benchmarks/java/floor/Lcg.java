package bench;

/**
 * Not a kernel: the floor for bench.Lcg (called twice per bench.MonteCarlo sample). The same generator,
 * plus the cheapest conceivable record of each invocation: one increment of a static field (no thread
 * safety, no call, no per-thread lookup).
 */
public final class Lcg {
    static long invocations;
    private long seed;

    public Lcg(long seed) {
        invocations++;
        this.seed = seed;
    }

    public double nextDouble() {
        invocations++;
        seed = seed * 6364136223846793005L + 1442695040888963407L;
        return (seed >>> 11) * 0x1.0p-53;
    }
}
