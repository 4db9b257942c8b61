package legacy;

/** Switches, loops (one branching back to pc 0) and pre-Java-5 idioms in an old class file. */
public class SwitchAndLoop {
    public static int table(int k) {
        switch (k) {
            case 1: return 10;
            case 2: return 20;
            case 3: return 30;
            default: return -1;
        }
    }

    public static int lookup(int k) {
        switch (k) {
            case -100: return 1;
            case 0: return 2;
            case 100000: return 3;
            default: return -1;
        }
    }

    /** ecj puts the loop condition at the bottom: {@code 0: goto cond}, so pc 0 is a forward goto. */
    public static int whileAtStart(int n) {
        while (n > 10) {
            n -= 3;
        }
        return n;
    }

    /** {@code 0: iinc ... if_icmpgt 0}: backward branch to pc 0. */
    public static int doWhileAtStart(int n) {
        do {
            n -= 3;
        } while (n > 10);
        return n;
    }

    public static int sumTo(int n) {
        int sum = 0;
        for (int i = 1; i <= n; i++) {
            sum += i;
        }
        return sum;
    }

    /**
     * String concatenation through StringBuffer, and a class literal, which before class version
     * 49 compiles to Class.forName cached in a synthetic static field, with a handler entered from
     * a try range where the operand stack is not empty.
     */
    public static String describe(int n) {
        return "n=" + n + " in " + SwitchAndLoop.class.getName();
    }
}
