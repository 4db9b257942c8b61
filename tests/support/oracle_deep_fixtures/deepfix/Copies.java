package deepfix;

/** copied: System.arraycopy and array clone inside a window count; outside, or Object.clone of a
 *  non-array, they do not. */
public final class Copies {
    private Copies() {}

    static final class Pt implements Cloneable {
        int x = 4;

        Pt dup() {
            try {
                return (Pt) super.clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
    }

    static int copy() {
        int[] a = new int[10];
        int[] b = new int[10];
        System.arraycopy(a, 0, b, 0, 7);
        int[] c = new int[5].clone();
        return b.length + c.length;
    }

    static int idle(int x) {
        return x + 1;
    }

    static int objectClone(Pt p) {
        return p.dup().x;
    }

    public static void main(String[] args) {
        int[] big = new int[100];
        int[] other = new int[100];
        Pt p = new Pt();
        int s = idle(1);
        System.arraycopy(big, 0, other, 0, 100);
        int[] d = big.clone();
        s += copy();
        s += idle(2);
        s += objectClone(p);
        System.out.println(s + d.length + other.length);
    }
}
