package bench;

import java.util.function.LongSupplier;

/** Recursive fib(27): about 630,000 tiny invocations, the worst case for per-invocation costs. */
public final class Fib implements LongSupplier {
    public static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    @Override
    public long getAsLong() {
        return fib(27);
    }
}
