package countinglegacy;

/** Recursion in old class versions, including an exception thrown at the bottom and caught at the top. */
public class Recursion {
    public static int fib(int n) {
        if (n < 2) {
            return n;
        }
        return fib(n - 1) + fib(n - 2);
    }

    public static int ackermann(int m, int n) {
        if (m == 0) {
            return n + 1;
        }
        if (n == 0) {
            return ackermann(m - 1, 1);
        }
        return ackermann(m - 1, ackermann(m, n - 1));
    }

    public static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** Throws at depth 0 when bottom < 0; every frame but the catching one escapes. */
    public static int descend(int depth, int bottom) {
        if (depth == 0) {
            if (bottom < 0) {
                throw new IllegalArgumentException("bottom");
            }
            return bottom;
        }
        return descend(depth - 1, bottom) + 1;
    }

    public static int catchDescend(int depth, int bottom) {
        try {
            return descend(depth, bottom);
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }

    public static void main(String[] args) {
        long check = 0;
        for (int n = 0; n <= 11; n++) {
            check = check * 3 + fib(n);
        }
        for (int n = 0; n <= 3; n++) {
            check = check * 3 + ackermann(2, n);
        }
        check += gcd(1071, 462) + gcd(832040, 514229);
        for (int d = 0; d < 6; d++) {
            check = check * 3 + catchDescend(d, d % 2 == 0 ? d : -d);
        }
        System.out.println("Recursion " + check);
    }
}
