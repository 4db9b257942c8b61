package deepfix;

/** Targets sum(I)I and down(I)V: recursion, counted once per outermost call. */
public final class Recur {
    private Recur() {}

    static int sum(int n) {
        if (n == 0) {
            return 0;
        }
        return n + sum(n - 1);
    }

    /** The self-call is followed by `return` at the bci where the callee's own `return` was:
     *  HotSpot suppresses that step as a "repeat single step", the oracle repairs it. */
    static void down(int n) {
        if (n > 0) {
            down(n - 1);
        }
    }

    public static void main(String[] args) {
        int s = sum(3) + sum(2);
        down(4);
        System.out.println(s);
    }
}
