package java25;

/**
 * Flexible constructor bodies (Java 25, JEP 513): statements before super(...) or this(...).
 * The constructor's first instruction can then be a loop header, so a frame at pc 0 holds
 * uninitializedThis, and fields are assigned while this is still uninitialized (early larval).
 */
public class CtorPrologue {
    final int value;

    /** {@code 0: iload_1 ... goto 0} before {@code putfield value} and {@code super()}. */
    public CtorPrologue(int n) {
        while (n > 10) {
            n -= 3;
        }
        value = n;
        super();
    }

    /** A prologue with a branch, then this(...). */
    public CtorPrologue(boolean negate, int n) {
        if (negate) {
            n = -n;
        }
        this(n);
    }
}
