package counting;

/**
 * Constructors that branch before super(...) / this(...) (their frames hold uninitializedThis), and
 * `new` expressions whose arguments branch between the `new` and the invokespecial of `<init>`
 * (their frames hold `uninitialized <pc>`). Some constructors throw: those invocations escape.
 */
public class Constructors {
    static int created;

    static class Base {
        final int size;

        Base(int size) {
            this.size = size;
            created++;
        }
    }

    static class Derived extends Base {
        final String tag;

        /** A conditional in the argument of super(...): a branch while `this` is uninitialized. */
        Derived(int n, boolean flip) {
            super(flip ? -n : (n > 10 ? n / 2 : n));
            tag = size < 0 ? "neg" : "pos";
        }

        /** this(...) whose arguments branch (&&, ?:) before the delegation. */
        Derived(int n) {
            this(n > 0 && n % 2 == 0 ? n * 3 : n, n < 0 || n > 100);
        }

        /** The argument of super(...) comes from a counted static method with a loop. */
        Derived(int[] values) {
            super(sum(values));
            tag = "sum";
        }

        /** May throw from inside the argument of super(...), before Base's constructor runs. */
        Derived(String digits) {
            super(requireDigits(digits));
            tag = digits;
        }
    }

    /** Throws after super() returned: the invocation escapes. */
    static class Checked extends Base {
        Checked(int size) {
            super(size);
            if (size < 0) {
                throw new IllegalArgumentException("size");
            }
        }
    }

    static class Point {
        final int x;
        final int y;

        Point(int x, int y) {
            this.x = x;
            this.y = y;
        }
    }

    static class Pair {
        final Point a;
        final Point b;

        Pair(Point a, Point b) {
            this.a = a;
            this.b = b;
        }

        int span() {
            return b == null ? a.x + a.y : Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
        }
    }

    static int sum(int[] values) {
        int s = 0;
        for (int i = 0; i < values.length; i++) {
            s += values[i];
        }
        return s;
    }

    static int requireDigits(String s) {
        int v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new NumberFormatException(s);
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** Two pending `new`s, each with branches in its arguments. */
    public static int nestedNews(int a, int b, int c) {
        Pair p = new Pair(new Point(a > b ? a : b, a < 0 ? 0 : a), c < 0 ? null : new Point(c, c > 5 ? 5 : c));
        return p.span();
    }

    /** A `new` whose argument comes from a call that may throw: the pending object is dropped. */
    public static int newWithThrowingArgument(String s) {
        try {
            return new Derived(s).size;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    public static int checkedOrZero(int size) {
        try {
            return new Checked(size).size;
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    public static void main(String[] args) {
        long check = 0;
        for (int n = -4; n < 14; n++) {
            check = check * 3 + new Derived(n, (n & 1) == 0).size + new Derived(n).size;
            check += new Derived(n).tag.length();
            check += nestedNews(n, 3 - n, n - 4) + checkedOrZero(n - 2);
        }
        int[][] samples = {{}, {1}, {1, 2, 3}, {-5, 5, 10}};
        for (int i = 0; i < samples.length; i++) {
            check = check * 3 + new Derived(samples[i]).size;
        }
        String[] digits = {"42", "x1", "", "007", "12a"};
        for (int i = 0; i < digits.length; i++) {
            check = check * 3 + newWithThrowingArgument(digits[i]);
        }
        System.out.println("Constructors " + check + " created=" + created);
    }
}
