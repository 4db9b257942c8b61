package countinglegacy;

/**
 * try/finally compiled by ecj for class versions 45 and 48: every finally body is a subroutine
 * entered with jsr and left with ret (JVMS 4.10.2.5), called from each exit of the try and from the
 * catch-any handler. jsr and ret are counted like any other instruction, once per execution. Some
 * invocations end by an exception that passes through a finally subroutine; they count nothing.
 * Source level 1.3: no generics, autoboxing, enhanced for, enums or assert.
 */
public class Subroutines {
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

    public static int safePlain(int k) {
        try {
            return plain(k);
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    /** The value is saved, the subroutine runs, the value is returned. */
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

    /** A subroutine called from inside another subroutine's try. */
    public static int nested(int k) {
        int r = 0;
        try {
            try {
                r = 100 / k;
            } finally {
                r += 1;
            }
        } catch (ArithmeticException e) {
            r = -r;
        } finally {
            r += 10;
        }
        return r;
    }

    /** break and continue leave the try through the subroutine. */
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

    /** A finally that throws from inside a subroutine escapes; the caller catches it. */
    public static int throwingFinally(int k) {
        int r = k;
        try {
            r = r * 2;
        } finally {
            if (k < 0) {
                throw new IllegalStateException("cleanup failed");
            }
        }
        return r;
    }

    public static int catchThrowingFinally(int k) {
        try {
            return throwingFinally(k);
        } catch (IllegalStateException e) {
            return 0;
        }
    }

    public static void main(String[] args) {
        long check = 0;
        for (int k = -3; k <= 3; k++) {
            check = check * 7 + safePlain(k) + returnInsideTry(k) + catchAndFinally(k) + nested(k)
                    + catchThrowingFinally(k);
        }
        for (int n = 0; n < 16; n += 3) {
            check = check * 7 + inLoop(n);
        }
        System.out.println("Subroutines " + check + " cleanups=" + cleanups);
    }
}
