package counting;

import java.util.function.IntUnaryOperator;

/**
 * Exceptions caught inside the method that raised them, and exceptions that escape a counted method
 * and are caught by a counted caller. By the counting contract an invocation that ends by an
 * exception counts nothing (no opcodes, no calls, no invocation), so every "escaping" method below
 * contributes only through the invocations that return normally.
 */
public class Exceptions {
    static int finallies;
    static int closes;

    /** Carries a code; an exception type of our own, so its constructor is counted too. */
    static class Fail extends RuntimeException {
        final int code;

        Fail(int code) {
            super(code < 0 ? "negative" : "other");
            this.code = code;
        }
    }

    /** Closed by try-with-resources; fails on close when its id is a multiple of 4 (addSuppressed paths). */
    static class Resource implements AutoCloseable {
        final int id;

        Resource(int id) {
            this.id = id;
        }

        @Override
        public void close() {
            closes++;
            if (id % 4 == 0) {
                throw new IllegalStateException("close " + id);
            }
        }
    }

    // --- escaping: these end by an exception for some inputs -------------------------------------

    /** idiv raises ArithmeticException when b == 0; it escapes. */
    public static int divide(int a, int b) {
        int q = a / b;
        return q + 1;
    }

    /** athrow of a new exception; it escapes. */
    public static int check(int v) {
        if (v < 0) {
            throw new Fail(v);
        }
        return v * 2;
    }

    /** No handler here: an exception from check passes through (two escaping frames). */
    public static int twoLevels(int v) {
        int r = check(v);
        return r + 1;
    }

    /** Recursion that throws at the bottom: every frame but the catching one ends by the exception. */
    public static int deepThrow(int depth, int bottom) {
        if (depth == 0) {
            return check(bottom);
        }
        return deepThrow(depth - 1, bottom) + 1;
    }

    /** The finally block runs on the way out (catch-any handler + athrow), then the exception escapes. */
    public static int finallyRethrow(int k) {
        try {
            return check(k) + 5;
        } finally {
            finallies++;
        }
    }

    // --- catching ---------------------------------------------------------------------------------

    public static int safeDivide(int a, int b) {
        try {
            return divide(a, b);
        } catch (ArithmeticException e) {
            return 0;
        }
    }

    public static int catchTwoLevels(int v) {
        try {
            return twoLevels(v);
        } catch (Fail f) {
            return f.code;
        }
    }

    public static int catchDeep(int depth, int bottom) {
        try {
            return deepThrow(depth, bottom);
        } catch (Fail f) {
            return -100 + f.code;
        }
    }

    public static int catchFinallyRethrow(int k) {
        try {
            return finallyRethrow(k);
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** iaload raises ArrayIndexOutOfBoundsException in this method and is caught here. */
    public static int catchInside(int[] a, int i) {
        try {
            return a[i];
        } catch (ArrayIndexOutOfBoundsException e) {
            return -1;
        }
    }

    /** finally copied onto the normal exit, the return, the catch, and the catch-any handler. */
    public static int finallyEverywhere(int k) {
        int r;
        try {
            if (k == 0) {
                throw new IllegalStateException();
            }
            if (k == 1) {
                return 10;
            }
            if (k == 7) {
                check(-k); // a Fail: no catch matches, the finally runs on the way out, the invocation escapes
            }
            r = 100 / (k - 2);
        } catch (IllegalStateException e) {
            r = -1;
        } catch (ArithmeticException e) {
            r = -2;
        } finally {
            finallies++;
        }
        return r;
    }

    public static int catchFinallyEverywhere(int k) {
        try {
            return finallyEverywhere(k);
        } catch (Fail f) {
            return f.code;
        }
    }

    public static int multiCatch(int k) {
        try {
            switch (k % 4) {
                case 0:
                    throw new IllegalArgumentException();
                case 1:
                    throw new IllegalStateException();
                case 2:
                    throw new Fail(k);
                default:
                    return k;
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            return -1;
        } catch (RuntimeException e) {
            return -2;
        }
    }

    /** A catch that throws a different exception, caught by an outer try of the same method. */
    public static int nestedTry(int k) {
        int r = 0;
        try {
            try {
                r = check(k);
            } catch (Fail f) {
                throw new IllegalStateException();
            } finally {
                r += 1000;
            }
        } catch (IllegalStateException e) {
            r = -r;
        }
        return r;
    }

    public static int tryWithResources(int id) {
        try (Resource a = new Resource(id); Resource b = new Resource(id + 1)) {
            if (id % 5 == 0) {
                throw new Fail(id);
            }
            return a.id + b.id;
        } catch (Fail f) {
            return -f.code - f.getSuppressed().length;
        } catch (IllegalStateException e) {
            return -1000 - e.getSuppressed().length;
        }
    }

    /** An exception from a JDK method (not counted) caught here. */
    public static int parseOrDefault(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The lambda body (a counted synthetic method) escapes through a JDK-generated frame. */
    public static int throughLambda(int v) {
        IntUnaryOperator op = x -> check(x) + 1;
        try {
            return op.applyAsInt(v);
        } catch (Fail f) {
            return 0;
        }
    }

    public static void main(String[] args) {
        long check = 0;
        for (int b = -2; b <= 2; b++) {
            check = check * 7 + safeDivide(100, b);
        }
        for (int v = -3; v <= 3; v++) {
            check = check * 7 + catchTwoLevels(v) + catchFinallyRethrow(v) + nestedTry(v) + throughLambda(v);
        }
        for (int d = 0; d < 6; d++) {
            check = check * 7 + catchDeep(d, d % 2 == 0 ? -d : d);
        }
        int[] a = {4, 5, 6};
        for (int i = -1; i <= 3; i++) {
            check = check * 7 + catchInside(a, i);
        }
        for (int k = 0; k < 8; k++) {
            check = check * 7 + catchFinallyEverywhere(k) + multiCatch(k);
        }
        for (int id = 10; id < 22; id++) {
            check = check * 7 + tryWithResources(id);
        }
        String[] inputs = {"12", "x", "-7", "", "2147483648"};
        for (int i = 0; i < inputs.length; i++) {
            check = check * 7 + parseOrDefault(inputs[i]);
        }
        System.out.println("Exceptions " + check + " finallies=" + finallies + " closes=" + closes);
    }
}
