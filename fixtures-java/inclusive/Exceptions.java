package inclusive;

/** A callee that throws, caught in the target; targets that sometimes end by an exception. */
public final class Exceptions {
    static int check(int x) {
        if (x % 4 == 3) {
            throw new IllegalArgumentException("bad " + x);
        }
        return x * 2;
    }

    static int helper(int x) {
        return x + 1;
    }

    static int guarded(int x) {
        int r = helper(x);
        try {
            r += check(x);
        } catch (IllegalArgumentException e) {
            r -= helper(-x);
        }
        return r;
    }

    static int risky(int x) {
        int r = helper(x) + helper(x + 1);   // counted only when risky itself completes
        return r + check(x);
    }

    static int outerCatches(int x) {
        try {
            return risky(x);
        } catch (IllegalArgumentException e) {
            return helper(0);
        }
    }

    public static void main(String[] args) {
        int s = 0;
        for (int i = 0; i < 8; i++) {
            s += guarded(i);
            s += outerCatches(i);
            try {
                s += risky(i);
            } catch (IllegalArgumentException e) {
                s -= 1;
            }
        }
        System.out.println("exceptions " + s);
    }
}
