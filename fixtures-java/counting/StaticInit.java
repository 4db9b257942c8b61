package counting;

/**
 * Static initializers with real work: a sieve and a table built by loops in `<clinit>`, a `<clinit>`
 * that calls counted static methods, and nested classes initialized lazily, each by a different first
 * use (JVMS 5.5): getstatic (Holder), invokestatic (Planet.values(), whose `<clinit>` runs the enum
 * constructor once per constant), new (Lazy) and putstatic (Sink). Each `<clinit>` runs exactly once,
 * and none reads state that main changes, so initializing the classes earlier changes no count.
 */
public class StaticInit {
    static final int LIMIT = 200;
    static final boolean[] COMPOSITE = new boolean[LIMIT];
    static final int[] PRIMES;
    static final int[] TRIANGLES = new int[32];
    static int initCalls;

    static {
        int count = 0;
        for (int i = 2; i < LIMIT; i++) {
            if (!COMPOSITE[i]) {
                count++;
                for (int j = i * i; j < LIMIT; j += i) {
                    COMPOSITE[j] = true;
                }
            }
        }
        PRIMES = new int[count];
        int k = 0;
        for (int i = 2; i < LIMIT; i++) {
            if (!COMPOSITE[i]) {
                PRIMES[k++] = i;
            }
        }
        for (int i = 0; i < TRIANGLES.length; i++) {
            TRIANGLES[i] = triangle(i);
        }
    }

    static int triangle(int n) {
        initCalls++;
        return n * (n + 1) / 2;
    }

    /** Initialized on the first call of table(), not with StaticInit. */
    static class Holder {
        static final long[] POWERS = new long[20];

        static {
            long p = 1;
            for (int i = 0; i < POWERS.length; i++) {
                POWERS[i] = p;
                p *= 3;
            }
        }
    }

    /** Initialized by its first `new`. */
    static class Lazy {
        static final int[] SQUARES = new int[16];

        static {
            for (int i = 0; i < SQUARES.length; i++) {
                SQUARES[i] = i * i;
            }
        }

        final int base;

        Lazy(int base) {
            this.base = base;
        }

        int square(int i) {
            return SQUARES[(base + i) & 15];
        }
    }

    /** Initialized by its first putstatic. */
    static class Sink {
        static int last;
        static final String[] NAMES = {"zero", "one", "two"};
        static int longest;

        static {
            for (int i = 0; i < NAMES.length; i++) {
                if (NAMES[i].length() > longest) {
                    longest = NAMES[i].length();
                }
            }
        }
    }

    enum Planet {
        MERCURY(3, 1), VENUS(6, 5), EARTH(6, 6), MARS(3, 1);

        final int radius;
        final int mass;
        final int gravity;

        Planet(int radius, int mass) {
            this.radius = radius;
            this.mass = mass;
            this.gravity = radius == 0 ? 0 : mass * 100 / (radius * radius);
        }
    }

    public static long table(int i) {
        return Holder.POWERS[i % Holder.POWERS.length];
    }

    public static void main(String[] args) {
        long check = PRIMES.length;
        for (int i = 0; i < PRIMES.length; i += 5) {
            check = check * 7 + PRIMES[i];
        }
        for (int i = 0; i < 25; i++) {
            check = check * 7 + table(i) + TRIANGLES[i];
        }
        Sink.last = 1;
        Lazy lazy = new Lazy(3);
        for (int i = 0; i < 10; i++) {
            check = check * 7 + lazy.square(i) + Sink.longest;
        }
        Planet[] planets = Planet.values();
        for (int i = 0; i < planets.length; i++) {
            check = check * 7 + planets[i].gravity + planets[i].ordinal();
        }
        System.out.println("StaticInit " + check + " initCalls=" + initCalls);
    }
}
