package engine;

/**
 * Methods whose first instruction (pc 0) is a branch target, so a frame sits at offset 0 and any
 * code inserted at the method entry must not be re-run by the backward branch.
 *
 * <p>Java 17 cannot put a loop before {@code super()}, so the constructor's loop starts right after
 * it (pc 4); fixtures-java/java25/ has a constructor whose loop is at pc 0.
 */
public class LoopAtStart {
    final int value;

    /** {@code 0: iload_0 ... 9: goto 0}: unconditional backward branch to pc 0. */
    public static int whileAtStart(int n) {
        while (n > 10) {
            n -= 3;
        }
        return n;
    }

    /** {@code 0: iinc ... ifgt 0}: conditional backward branch to pc 0. */
    public static int doWhileAtStart(int n) {
        do {
            n -= 3;
        } while (n > 10);
        return n;
    }

    /** {@code 0: goto 0}: a branch to itself. Never returns; for transforms, not for running. */
    public static void spinForever() {
        while (true) {
        }
    }

    /** Infinite loop at pc 0 that only a break (a forward branch out of it) leaves. */
    public static int foreverWithBreak(int n) {
        for (;;) {
            if (n % 7 == 0) {
                break;
            }
            n++;
        }
        return n;
    }

    /** Loop right after the super() call. */
    public LoopAtStart(int n) {
        while (n > 10) {
            n -= 3;
        }
        value = n;
    }
}
