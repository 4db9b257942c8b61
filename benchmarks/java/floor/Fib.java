package bench;

import java.util.function.LongSupplier;

/**
 * Not a kernel: the floor for bench.Fib. The same fib, plus the cheapest conceivable record of each
 * invocation: one increment of a static field (no thread safety, no call, no per-thread lookup, one
 * counter). No counting scheme that records each invocation, as ByCounter's report before every return
 * does, can cost less; benchmarks/overhead.py loads this class side by side with the original and the
 * counted ones.
 */
public final class Fib implements LongSupplier {
    static long invocations;

    public static int fib(int n) {
        invocations++;
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    @Override
    public long getAsLong() {
        return fib(27);
    }
}
