package inclusive;

/** A constructor whose super(...) call throws: no handler may cover that call (JVMS 4.10.1.9). */
public final class Failing {
    static class Base {
        final int v;

        Base(int v) {
            if (v < 0) {
                throw new IllegalArgumentException("negative " + v);
            }
            this.v = v;
        }
    }

    static final class Derived extends Base {
        Derived(int v) {
            super(v);
        }

        int twice() {
            return v * 2;
        }
    }

    static int make(int v) {
        int r = 0;
        try {
            r += new Derived(v).twice();
        } catch (IllegalArgumentException e) {
            r -= 1;
        }
        return r + new Derived(v + 10).twice();
    }

    public static void main(String[] args) {
        System.out.println("failing " + (make(1) + make(-1) + make(-5)));
    }
}
