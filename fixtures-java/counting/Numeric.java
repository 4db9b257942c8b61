package counting;

/**
 * long, double and float locals and arithmetic: two-slot locals, lcmp/dcmpl/dcmpg/fcmpl/fcmpg,
 * conversions, shifts and long division by zero. Only exactly rounded operations (+ - * / and
 * conversions), never Math.sin and friends, so no branch depends on how a JVM rounds a libm call;
 * doubles are printed as their bits (Double.toString changed in JDK 19).
 */
public class Numeric {
    /** A 64-bit linear congruential step: deterministic "noise" from long multiply and shifts. */
    public static long lcg(long state) {
        return state * 6364136223846793005L + 1442695040888963407L;
    }

    public static long bits(long x, int s) {
        long a = x << s;
        long b = x >> s;
        long c = x >>> (s + 1);
        return (a & 0xFFFFL) | (b ^ c) | -x;
    }

    /** ldiv/lrem by zero throw; caught here. */
    public static long safeRatio(long a, long b) {
        try {
            return a / b + a % b;
        } catch (ArithmeticException e) {
            return Long.MIN_VALUE;
        }
    }

    /** Newton's square root, with a double loop condition (dcmpg). */
    public static double sqrt(double x) {
        if (x <= 0) {
            return 0;
        }
        double r = x > 1 ? x / 2 : 1.0;
        for (int i = 0; i < 60; i++) {
            double next = 0.5 * (r + x / r);
            if (Math.abs(next - r) < 1e-12 * r) {
                return next;
            }
            r = next;
        }
        return r;
    }

    /** NaN makes dcmpl and dcmpg differ; both are taken. */
    public static int compare(double a, double b) {
        int r = 0;
        if (a < b) {
            r |= 1;
        }
        if (a > b) {
            r |= 2;
        }
        if (a == b) {
            r |= 4;
        }
        if (a != a) {
            r |= 8;
        }
        return r;
    }

    public static float floats(float f, int i) {
        float g = f * i - 1.5f;
        if (g > f) {
            g /= 2;
        } else if (g < -f) {
            g = -g;
        }
        return g + (float) i / 3;
    }

    /** Narrowing and widening conversions, including saturating d2i/d2l and NaN. */
    public static long conversions(double d) {
        int i = (int) d;
        long l = (long) d;
        float f = (float) d;
        byte b = (byte) i;
        char c = (char) i;
        short s = (short) i;
        double back = l;
        return i + l + (long) f + b + c + s + (long) (back * 2) + (long) (float) l + (int) (double) i + (int) (l >> 7);
    }

    /** Horner's rule with a long accumulator over an int array. */
    public static long horner(int[] coefficients, long x) {
        long acc = 0L;
        for (int i = coefficients.length - 1; i >= 0; i--) {
            acc = acc * x + coefficients[i];
        }
        return acc;
    }

    public static void main(String[] args) {
        long check = 0;
        long state = 42;
        for (int i = 0; i < 40; i++) {
            state = lcg(state);
            check ^= bits(state, i & 31) + safeRatio(state >> 40, i % 5 - 2);
        }
        double nan = 0.0 / 0.0;
        double[] xs = {0.0, 2.0, 10.0, 0.25, 1e6, -3.0, nan}; // NaN never converges: all 60 iterations
        for (int i = 0; i < xs.length; i++) {
            check = check * 31 + Double.doubleToLongBits(sqrt(xs[i]));
        }
        double[] pairs = {1.0, 2.0, 2.0, 1.0, 3.0, 3.0, nan, 1.0, 1.0, nan, -0.0, 0.0};
        for (int i = 0; i < pairs.length; i += 2) {
            check = check * 31 + compare(pairs[i], pairs[i + 1]);
        }
        for (int i = -4; i < 8; i++) {
            check = check * 31 + Float.floatToIntBits(floats(1.25f * i, i));
        }
        double[] values = {0.5, -1.75, 1e10, -1e20, 3e9, nan, 65537.9, -129.5};
        for (int i = 0; i < values.length; i++) {
            check = check * 31 + conversions(values[i]);
        }
        int[] poly = {3, -1, 4, 1, -5, 9};
        for (long x = -3; x <= 3; x++) {
            check = check * 31 + horner(poly, x);
        }
        System.out.println("Numeric " + check);
    }
}
