package engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntBinaryOperator;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;

/**
 * The everyday shapes of compiled Java that a class-file rewriter must carry through unchanged:
 * two-slot locals, wide instructions, exception tables, monitors, invokedynamic, class
 * initializers, interface methods with code, nested and inner classes, records.
 */
public class Misc {
    static final int[] SQUARES;
    static int initCount;

    /** {@code <clinit>} with a loop (and the $assertionsDisabled setup for the assert below). */
    static {
        SQUARES = new int[16];
        for (int i = 0; i < SQUARES.length; i++) {
            SQUARES[i] = i * i;
        }
        initCount++;
    }

    private int total;

    /** Interface with default, static and private methods (all with code). */
    public interface Shape {
        double area();

        default String describe() {
            return name() + " of area " + area();
        }

        static Shape square(double side) {
            return () -> side * side;
        }

        private String name() {
            return getClass().isSynthetic() || getClass().isAnonymousClass() ? "shape" : getClass().getSimpleName();
        }
    }

    /** Static nested class implementing the interface. */
    public static final class Circle implements Shape {
        private final double radius;

        public Circle(double radius) {
            this.radius = radius;
        }

        @Override
        public double area() {
            return Math.PI * radius * radius;
        }
    }

    /** Inner class: this$0, and private access to the outer class through nestmates (Java 11). */
    public final class Counter {
        int count;

        public int add(int k) {
            count += k;
            total += k;
            return count;
        }
    }

    /** Record: toString/equals/hashCode are invokedynamic calls to ObjectMethods. */
    public record Point(int x, int y) {
        public Point {
            if (x < 0) {
                throw new IllegalArgumentException("x < 0");
            }
        }
    }

    /** long and double locals take two slots; lcmp, dcmpg, conversions, ldc2_w. */
    public static double longAndDouble(long a, double b) {
        long c = a * 3L + (a >>> 7) - (a << 2) ^ 0x7fff_ffff_ffffL;
        double d = b * 1.5 + c / 7.0;
        float f = (float) d;
        int i = (int) c;
        if (c > a && d >= b) {
            d -= 0.25;
        } else if (f < 1e-3f) {
            c = -c;
        }
        return d + f + i + (double) c + Math.sqrt(Math.abs(d));
    }

    /**
     * More than 255 locals: the 128 doubles fill slots 1..256, so every local after them is
     * loaded, stored and incremented through {@code wide} (JVMS 6.5 wide). An iinc whose constant
     * does not fit in a byte is wide too, whatever its slot.
     */
    public static long manyLocals(int n) {
        double d000, d001, d002, d003, d004, d005, d006, d007, d008, d009, d010, d011, d012, d013, d014, d015;
        double d016, d017, d018, d019, d020, d021, d022, d023, d024, d025, d026, d027, d028, d029, d030, d031;
        double d032, d033, d034, d035, d036, d037, d038, d039, d040, d041, d042, d043, d044, d045, d046, d047;
        double d048, d049, d050, d051, d052, d053, d054, d055, d056, d057, d058, d059, d060, d061, d062, d063;
        double d064, d065, d066, d067, d068, d069, d070, d071, d072, d073, d074, d075, d076, d077, d078, d079;
        double d080, d081, d082, d083, d084, d085, d086, d087, d088, d089, d090, d091, d092, d093, d094, d095;
        double d096, d097, d098, d099, d100, d101, d102, d103, d104, d105, d106, d107, d108, d109, d110, d111;
        double d112, d113, d114, d115, d116, d117, d118, d119, d120, d121, d122, d123, d124, d125, d126, d127;
        d000 = n;
        d127 = d000 / 2;
        n += 1000; // wide iinc on slot 0: the constant needs 16 bits
        int w = n; // wide istore
        for (int i = 0; i < 3; i++) { // wide iload/istore/iinc on the loop variable
            w += 300;
        }
        long big = w; // wide lstore
        float f = w; // wide fstore
        double half = big / 2.0 + d127; // wide lload, dstore
        String s = "w=" + w; // wide astore
        return big + (long) half + (long) f + s.length();
    }

    /** Exception table with several handlers, a multi-catch and a finally copied onto every exit. */
    public static int tryCatchFinally(int k) {
        int r = 0;
        try {
            if (k < 0) {
                throw new IllegalArgumentException("negative");
            }
            r = 100 / k;
        } catch (ArithmeticException e) {
            r = -1;
        } catch (IllegalStateException | IllegalArgumentException e) {
            r = -2;
        } finally {
            r += 1000;
        }
        return r;
    }

    /** A return inside try: the finally runs between computing and returning the value. */
    public static int finallyWithReturn(int k) {
        try {
            if (k > 0) {
                return k;
            }
            return -k;
        } finally {
            initCount++;
        }
    }

    /** try-with-resources: nested handlers, addSuppressed, a null check on the resource. */
    public static int tryWithResources(int k) throws Exception {
        int[] closed = new int[1];
        try (AutoCloseable resource = () -> closed[0]++) {
            if (k == 0) {
                throw new IllegalStateException("k == 0");
            }
            k *= 2;
        } catch (IllegalStateException e) {
            k = -1;
        }
        return k + closed[0];
    }

    /** monitorenter/monitorexit with the handler javac adds so the monitor is released on throw. */
    public static int synchronizedBlock(Object lock, int k) {
        synchronized (lock) {
            k += SQUARES[k & 15];
        }
        return k;
    }

    /** ACC_SYNCHRONIZED: the monitor is implicit, no monitor instructions. */
    public synchronized int synchronizedMethod(int k) {
        total += k;
        return total;
    }

    /** Capturing lambda, non-capturing method reference, constructor reference. */
    public static int lambdas(int k) {
        IntBinaryOperator mul = (x, y) -> x * y + k;
        IntUnaryOperator neg = Math::negateExact;
        Supplier<List<String>> fresh = ArrayList::new;
        List<String> list = fresh.get();
        list.add("x");
        return mul.applyAsInt(k, 3) + neg.applyAsInt(k) + list.size();
    }

    /** String concatenation through invokedynamic makeConcatWithConstants. */
    public static String concat(int n, String s, double d, char c) {
        return "n=" + n + ", s=" + s + ", d=" + d + c;
    }

    /** Anonymous class, local class, enhanced for over a List (invokeinterface). */
    public static int anonymousAndLocalClasses(int k) {
        class Doubler {
            int apply(int v) {
                return 2 * v;
            }
        }
        Comparator<Integer> reverse = new Comparator<Integer>() {
            @Override
            public int compare(Integer a, Integer b) {
                return Integer.compare(b, a);
            }
        };
        List<Integer> values = new ArrayList<>(List.of(k, 3, 1, 2));
        values.sort(reverse);
        int sum = 0;
        for (int v : values) {
            sum = sum * 10 + new Doubler().apply(v);
        }
        return sum;
    }

    /** instanceof, checkcast, multianewarray, athrow, ldc of a class, assert. */
    public static int objectsAndArrays(Object o, int k) {
        assert k >= 0 : "k must not be negative";
        int[][] grid = new int[k + 1][k + 2];
        grid[k][k + 1] = 7;
        if (o instanceof String) {
            return ((String) o).length() + grid[k][k + 1];
        }
        if (o == Misc.class) {
            return -1;
        }
        if (o == null) {
            throw new NullPointerException("o");
        }
        return grid.length;
    }

    public int useInner(int k) {
        Counter counter = new Counter();
        counter.add(k);
        return counter.add(1) + total;
    }

    public static String shapes() {
        return new Circle(1).describe() + "; " + Shape.square(2).describe() + "; " + new Point(1, 2);
    }
}
