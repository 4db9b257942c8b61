package engine;

/**
 * Constructors that branch before their {@code super(...)} or {@code this(...)} call, so the
 * frames there hold {@code uninitializedThis} (JVMS 4.10.1.4) in local 0 and on the stack.
 */
public class CtorBranches extends CtorBase {
    /** super(x > 0 ? x : -x): stack at the join is [uninitializedThis, int]. */
    public CtorBranches(int x) {
        super(x > 0 ? x : -x);
    }

    /** this(...) with a branch: delegation to another constructor of this class. */
    public CtorBranches(int x, int y) {
        this(x > y ? x : y);
    }

    /** Branches in both arguments, one of them around a call on a parameter. */
    public CtorBranches(boolean c, String s) {
        super(c ? s.length() : 0, c && s.isEmpty() ? "empty" : s);
    }

    /** A loop before super(): backward branch while this is still uninitialized. */
    public CtorBranches(long n) {
        super(switch ((int) (n % 3)) {
            case 0 -> 1;
            case 1 -> {
                int s = 0;
                for (int i = 0; i < n; i++) {
                    s += i;
                }
                yield s;
            }
            default -> 2;
        });
    }

    /** A static helper called before super(), with a branch inside its argument. */
    public CtorBranches(String s) {
        super(lengthOrZero(s == null ? "" : s), s != null ? s : "null");
    }

    static int lengthOrZero(String s) {
        return s.length();
    }
}
