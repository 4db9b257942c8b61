package deepfix;

/** Targets that end by an exception (abrupt windows) and that catch one (normal windows). */
public final class Throws {
    private Throws() {}

    static final RuntimeException PREBUILT = new RuntimeException("prebuilt");

    static int boom(int x) {
        if (x > 0) {
            throw PREBUILT;
        }
        return x;
    }

    static int inner(int x) {
        if (x > 0) {
            throw PREBUILT;
        }
        return x;
    }

    static int guarded(int x) {
        try {
            return inner(x);
        } catch (RuntimeException e) {
            return -1;
        }
    }

    static int outerCatches() {
        try {
            return boom(1);
        } catch (RuntimeException e) {
            return 7;
        }
    }

    public static void main(String[] args) {
        int s = 0;
        try {
            s += boom(1);
        } catch (RuntimeException e) {
            s += 10;
        }
        s += boom(0);
        s += guarded(1);
        s += outerCatches();
        try {
            s += boom(2);
        } catch (RuntimeException e) {
            s += 100;
        }
        System.out.println(s);
    }
}
