package legacy;

/**
 * try/finally as compilers emitted it before class version 50: the finally body is a subroutine
 * entered with jsr and left with ret (JVMS 4.10.2.5), its return address kept in a local.
 * Source level 1.3: no generics, no autoboxing, no enhanced for.
 */
public class TryFinally {
    static int cleanups;

    public static int plain(int k) {
        int r = 0;
        try {
            r = 100 / k;
        } finally {
            cleanups++;
        }
        return r;
    }

    /** Returns from inside the try: the value is saved, the subroutine runs, the value is returned. */
    public static int returnInsideTry(int k) {
        try {
            if (k > 0) {
                return k;
            }
            return -k;
        } finally {
            cleanups++;
        }
    }

    /** catch and finally together: the subroutine is called from the try, the handler and the any-handler. */
    public static int catchAndFinally(int k) {
        int r;
        try {
            r = 100 / k;
        } catch (ArithmeticException e) {
            r = -1;
        } finally {
            cleanups++;
        }
        return r;
    }

    /** A subroutine inside a subroutine. */
    public static int nested(int k) {
        int r = 0;
        try {
            try {
                r = 100 / k;
            } finally {
                r += 1;
            }
        } finally {
            r += 10;
        }
        return r;
    }

    /** break and continue leave the try through the subroutine, inside a loop. */
    public static int inLoop(int n) {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            try {
                if (i % 3 == 0) {
                    continue;
                }
                if (i > 10) {
                    break;
                }
                sum += i;
            } finally {
                sum += 100;
            }
        }
        return sum;
    }
}
