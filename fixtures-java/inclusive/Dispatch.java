package inclusive;

/**
 * Virtual calls with two application overrides, an interface default method, a constructor chain, and an
 * interface method implemented by a superclass that does not implement the interface.
 */
public final class Dispatch {
    abstract static class Shape implements Named {
        final int side;

        Shape(int side) {
            this.side = side;
        }

        abstract int area();
    }

    interface Named {
        String kind();

        default int nameLength() {
            return kind().length() + 1;
        }
    }

    static final class Square extends Shape {
        Square(int side) {
            super(side);
        }

        @Override
        int area() {
            return side * side;
        }

        @Override
        public String kind() {
            return "square";
        }
    }

    static final class Triangle extends Shape {
        private final int height;

        Triangle(int side, int height) {
            super(side);
            this.height = height > 0 ? height : -height;
        }

        @Override
        int area() {
            return side * height / 2;
        }

        @Override
        public String kind() {
            return "tri";
        }

        @Override
        public int nameLength() {
            return kind().length() * 2;
        }
    }

    interface Sized {
        int size();
    }

    static class Box {
        public int size() {
            return 3;
        }
    }

    /** Implements Sized with a method it inherits from a class that does not implement Sized. */
    static final class Crate extends Box implements Sized {
    }

    static int measure(Sized s) {
        return s.size() + 1;
    }

    static int total(Shape[] shapes) {
        int sum = 0;
        for (Shape s : shapes) {
            sum += s.area() + s.nameLength();
        }
        return sum;
    }

    static Shape[] build(int n) {
        Shape[] out = new Shape[n];
        for (int i = 0; i < n; i++) {
            out[i] = i % 3 == 0 ? new Triangle(i, 3 - i) : new Square(i);
        }
        return out;
    }

    public static void main(String[] args) {
        Shape[] shapes = build(7);
        int t = total(shapes) + total(build(2)) + measure(new Crate());
        System.out.println("dispatch " + t + " " + shapes[1].kind());
    }
}
