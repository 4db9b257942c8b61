package hand;

/** Methods small enough to count by hand; tests/cli/test_cli.py derives every expected count. */
public class Tiny {
    public static int sum(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i;
        }
        return s;
    }

    public static int thrower(int x) {
        if (x > 0) {
            throw new IllegalStateException();
        }
        return x;
    }

    public static int catcher(int x) {
        try {
            return thrower(x);
        } catch (IllegalStateException e) {
            return -1;
        }
    }

    public static void main(String[] args) {
        sum(3);
        sum(0);
        catcher(1);
        catcher(0);
    }
}
