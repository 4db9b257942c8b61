package bench;

import java.util.function.LongSupplier;

/**
 * Not a kernel: the exact, thread-safe floor for bench.Fib, written by hand. An exact count of fib must
 * know, per invocation, which of its two paths ran (n < 2 or not); a thread-safe one must not let two
 * threads add into the same counter. So: the path number in a local, and at the end one increment of that
 * path's counter in the array of the thread that loaded the class, found by comparing the current thread
 * with a static final (which the JIT folds, like the array). Other threads are not handled: this class
 * only times the owner's path. benchmarks/overhead.py loads it side by side with the original and the
 * counted variants.
 */
public final class Fib implements LongSupplier {
    static final Thread OWNER = Thread.currentThread();
    static final long[] PATHS = new long[2];

    public static int fib(int n) {
        int path;
        int result;
        if (n < 2) {
            path = 0;
            result = n;
        } else {
            path = 1;
            result = fib(n - 1) + fib(n - 2);
        }
        if (Thread.currentThread() == OWNER) {
            PATHS[path]++;
        } else {
            throw new IllegalStateException("only the owner thread is timed");
        }
        return result;
    }

    @Override
    public long getAsLong() {
        return fib(27);
    }
}
