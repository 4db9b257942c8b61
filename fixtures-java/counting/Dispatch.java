package counting;

import java.util.ArrayList;
import java.util.List;

/**
 * Every kind of call and field access: invokeinterface, invokevirtual on abstract and overridden
 * methods, invokespecial for super calls and constructors (and, in javac --release 8 builds, for
 * private methods; javac 11+ calls those with invokevirtual, and reaches a private member of a
 * nestmate directly where --release 8 goes through a synthetic access$NNN method), invokestatic, and
 * get/put of static and instance fields. The call keys are the signatures as written at the call
 * site, so an interface call and a virtual call to the same implementation are different keys.
 */
public class Dispatch {
    static int staticField;

    private int instanceField;

    interface Animal {
        int legs();

        default String kind() {
            return legs() > 2 ? "many" : "few";
        }

        static Animal of(int k) {
            switch (k % 3) {
                case 0:
                    return new Dog(k);
                case 1:
                    return new Bird(k);
                default:
                    return new Snake();
            }
        }
    }

    abstract static class Base implements Animal {
        protected int weight;

        Base(int weight) {
            this.weight = weight;
        }

        abstract int speed();

        @Override
        public int legs() {
            return 4;
        }

        int score() {
            return speed() * 10 + weight + bonus();
        }

        private int bonus() {
            return weight & 3;
        }
    }

    static final class Dog extends Base {
        Dog(int weight) {
            super(weight);
        }

        @Override
        int speed() {
            return 8;
        }

        @Override
        public int legs() {
            return super.legs(); // invokespecial of the superclass method
        }
    }

    static final class Bird extends Base {
        Bird(int weight) {
            super(weight + 1);
        }

        @Override
        int speed() {
            return 20;
        }

        @Override
        public int legs() {
            return 2;
        }

        @Override
        public String kind() {
            return "bird:" + super.kind().length(); // invokespecial reaching a default method
        }
    }

    static class Snake implements Animal {
        @Override
        public int legs() {
            return 0;
        }

        /** Reaches the outer class's private static method. */
        int secret() {
            return hidden(legs());
        }
    }

    private static int hidden(int x) {
        return x + 41;
    }

    private int privateInstance(int x) {
        return x + instanceField;
    }

    public int instanceCalls(int x) {
        instanceField += x;
        staticField -= x;
        return privateInstance(x) + this.instanceField + Dispatch.staticField;
    }

    public static int animals(int n) {
        List<Animal> zoo = new ArrayList<Animal>();
        for (int k = 0; k < n; k++) {
            zoo.add(Animal.of(k));
        }
        int total = 0;
        for (int i = 0; i < zoo.size(); i++) { // invokeinterface List.size/get
            Animal a = zoo.get(i);
            total += a.legs() + a.kind().length(); // invokeinterface on our own interface
            if (a instanceof Base) {
                total += ((Base) a).score(); // invokevirtual on an abstract class
            } else {
                total += ((Snake) a).secret();
            }
        }
        return total;
    }

    public static void main(String[] args) {
        long check = 0;
        for (int n = 0; n < 12; n++) {
            check = check * 3 + animals(n);
        }
        Dispatch d = new Dispatch();
        for (int x = -5; x < 10; x++) {
            check = check * 3 + d.instanceCalls(x);
        }
        System.out.println("Dispatch " + check);
    }
}
