package scaling;

/** O(phi^n), phi = 1.618...: exponential, though not 2^n. */
public class Fib {
    public static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }
}
