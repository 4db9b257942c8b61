package inclusive;

/** A class initializer that runs between a target's call and its callee, and calls that very callee. */
public final class StaticInit {
    static final class Table {
        static final int[] SQUARES = fill();

        static int[] fill() {
            int[] t = new int[4];
            for (int i = 0; i < t.length; i++) {
                t[i] = square(i);   // from the initializer: never part of compute()'s counts
            }
            return t;
        }

        static int square(int i) {
            if (i < 2) {
                return i;
            }
            int s = 0;
            for (int k = 0; k < i; k++) {
                s += i;
            }
            return s;
        }

        static int lookup(int i) {
            return SQUARES[i];
        }
    }

    static int compute(int i) {
        // the first Table.square(...) initializes Table, whose <clinit> calls square(0..3) itself
        return Table.square(i) + Table.lookup(i % 4);
    }

    public static void main(String[] args) {
        System.out.println("static-init " + (compute(5) + compute(6)));
    }
}
