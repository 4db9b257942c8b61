package engine;

/** Superclass for CtorBranches; its own this(...) call has no branch. */
public class CtorBase {
    public final int magnitude;
    public final String label;

    public CtorBase(int magnitude) {
        this(magnitude, "base");
    }

    public CtorBase(int magnitude, String label) {
        this.magnitude = magnitude;
        this.label = label;
    }
}
