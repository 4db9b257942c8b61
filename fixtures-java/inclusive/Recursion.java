package inclusive;

/** Direct recursion (fib), a cycle of two methods (isEven/isOdd) and a recursive instance method. */
public final class Recursion {
    private final int[] memo = new int[8];

    static int fib(int n) {
        return n < 2 ? leaf(n) : fib(n - 1) + fib(n - 2);
    }

    static int leaf(int n) {
        return n;
    }

    static boolean isEven(int n) {
        return n == 0 || isOdd(n - 1);
    }

    static boolean isOdd(int n) {
        return n != 0 && isEven(n - 1);
    }

    int countDown(int n) {
        if (n == 0) {
            return 0;
        }
        memo[n % memo.length]++;
        return 1 + countDown(n - 1);
    }

    public static void main(String[] args) {
        int s = 0;
        for (int i = 0; i < 3; i++) {
            s += fib(6 + i);
        }
        s += isEven(7) ? 1 : 0;
        s += isOdd(9) ? 1 : 0;
        s += new Recursion().countDown(12);
        System.out.println("recursion " + s + " " + leaf(4));
    }
}
