package inclusive;

/** Kernels for benchmarks/inclusive.py: tiny callees called very often, the worst case of inclusive counts. */
public final class Kernels {
    private Kernels() {}

    public static int fib(int n) {
        return n < 2 ? leaf(n) : fib(n - 1) + fib(n - 2);
    }

    static int leaf(int n) {
        return n;
    }

    public static long sum(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            s += step(i);
        }
        return s;
    }

    static int step(int i) {
        return i % 3 == 0 ? i : 1;
    }
}
