package counting;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntBinaryOperator;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * invokedynamic call sites: lambdas (their bodies are counted synthetic methods lambda$...), method
 * references (static, bound, unbound, constructor) and, from javac 9 on, string concatenation with `+`
 * (javac --release 8 emits StringBuilder calls instead). Also interface default and static methods.
 * No JDK algorithm here calls back into user code a JDK-dependent number of times (no sorting with
 * a comparator, no streams), so the counts are the same on every JDK.
 */
public class Functional {
    private final int offset;

    Functional(int offset) {
        this.offset = offset;
    }

    /** An interface with code of its own: a default method that calls an abstract one, and a static one. */
    interface Shape {
        int area();

        default String describe() {
            return name() + "=" + area();
        }

        default String name() {
            return "shape";
        }

        static int totalArea(Shape[] shapes) {
            int total = 0;
            for (int i = 0; i < shapes.length; i++) {
                total += shapes[i].area();
            }
            return total;
        }
    }

    static class Square implements Shape {
        final int side;

        Square(int side) {
            this.side = side;
        }

        @Override
        public int area() {
            return side * side;
        }

        @Override
        public String name() {
            return "square";
        }
    }

    static class Box {
        final int content;

        Box(int content) {
            this.content = content;
        }

        @Override
        public String toString() {
            return "Box(" + content + ")";
        }
    }

    static int twice(int x) {
        return 2 * x;
    }

    int shift(int x) {
        return x + offset;
    }

    static int applyAll(IntUnaryOperator[] ops, int x) {
        for (int i = 0; i < ops.length; i++) {
            x = ops[i].applyAsInt(x);
        }
        return x;
    }

    public static int lambdas(int seed) {
        int captured = seed * 3;
        IntUnaryOperator plain = x -> x + 1;
        IntUnaryOperator capturing = x -> x * captured;
        IntBinaryOperator branching = (a, b) -> a > b ? a - b : b - a;
        Supplier<Box> later = () -> new Box(captured);
        return applyAll(new IntUnaryOperator[] {plain, capturing, plain}, seed)
                + branching.applyAsInt(seed, 7) + later.get().content;
    }

    public static int methodReferences(int seed) {
        Functional f = new Functional(seed);
        IntUnaryOperator staticRef = Functional::twice;
        IntUnaryOperator boundRef = f::shift;
        Function<Integer, Box> constructorRef = Box::new;
        ToIntFunction<String> unboundRef = String::length;
        BiFunction<Functional, Integer, Integer> unboundUser = Functional::shift;
        return applyAll(new IntUnaryOperator[] {staticRef, boundRef}, seed)
                + constructorRef.apply(seed).content + unboundRef.applyAsInt("abc")
                + unboundUser.apply(f, 5);
    }

    /** `+` over String, int, long, char, boolean, null and an object whose toString is counted. */
    public static String concat(int i, long l, char c, Box box) {
        String s = "i=" + i + " l=" + l + " c=" + c + " ok=" + (i > 0) + " box=" + box;
        if ((i & 1) == 0) {
            s = s + "!";
        }
        return s;
    }

    /** A default method, an overriding one, and an interface static method. */
    public static int shapes(int n) {
        Shape[] shapes = new Shape[n];
        for (int i = 0; i < n; i++) {
            final int k = i;
            shapes[i] = (i % 3 == 0) ? new Square(i) : () -> k + 1; // a lambda implementing Shape
        }
        int length = 0;
        for (int i = 0; i < n; i++) {
            length += shapes[i].describe().length();
        }
        return Shape.totalArea(shapes) * 100 + length;
    }

    /** A JDK method that calls back once per element (ArrayList.forEach). */
    public static int forEach(int n) {
        List<Box> boxes = new ArrayList<Box>();
        for (int i = 0; i < n; i++) {
            boxes.add(new Box(i));
        }
        final int[] sum = new int[1];
        boxes.forEach(b -> sum[0] += b.content);
        return sum[0];
    }

    public static void main(String[] args) {
        long check = 0;
        for (int seed = -3; seed < 12; seed++) {
            check = check * 5 + lambdas(seed) + methodReferences(seed);
        }
        int length = 0;
        for (int i = -2; i < 6; i++) {
            length += concat(i, i * 100000000000L, (char) ('a' + i + 2), i == 0 ? null : new Box(i)).length();
        }
        check = check * 5 + length;
        for (int n = 0; n < 8; n++) {
            check = check * 5 + shapes(n) + forEach(n);
        }
        System.out.println("Functional " + check + " " + concat(3, 4L, 'z', new Box(5)));
    }
}
