package bench;

import java.util.function.LongSupplier;

/**
 * Not a kernel: the exact, thread-safe floor for bench.MonteCarlo, written by hand, for a count that keeps
 * counters of its own. An exact count of integrate must know how often the sample fell inside the circle,
 * a branch taken at random about 79% of the time. The least a counter of its own can do is record the
 * branch itself: one more local incremented beside `under++` (and added to a static array once per
 * invocation). That alone costs HotSpot 17's C2 the conditional move it makes of the original branch (a
 * diamond with two variables changing is compiled as a jump, mispredicted about one time in five).
 * Counting per basic block goes under this floor: `under++` already counts the branch, and the change of
 * `under` across the loop is the count (pytest_bytecount/counting/derived.py). Lcg is floor-exact/Lcg.java.
 */
public final class MonteCarlo implements LongSupplier {
    static final int SAMPLES = 1_000_000;
    static final Thread OWNER = Thread.currentThread();
    static final long[] INSIDE = new long[1];

    public static double integrate(int samples) {
        Lcg random = new Lcg(113);
        int under = 0;
        long inside = 0;
        for (int i = 0; i < samples; i++) {
            double x = random.nextDouble();
            double y = random.nextDouble();
            if (x * x + y * y <= 1.0) {
                under++;
                inside++;
            }
        }
        if (Thread.currentThread() == OWNER) {
            INSIDE[0] += inside;
        } else {
            throw new IllegalStateException("only the owner thread is timed");
        }
        return (double) under / samples * 4.0;
    }

    @Override
    public long getAsLong() {
        return Double.doubleToLongBits(integrate(SAMPLES));
    }
}
