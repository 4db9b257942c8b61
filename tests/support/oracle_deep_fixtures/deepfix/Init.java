package deepfix;

/**
 * Classes first initialised inside a target: by constant-pool resolution (invokestatic) in
 * viaResolution, by Class.forName in viaForName. With "warm" both classes are initialised before the
 * targets run, with "cold" inside them; deep counts must not see their static initialisers.
 */
public final class Init {
    private Init() {}

    static final class Cold {
        static int seed;

        static {
            int s = 0;
            for (int i = 0; i < 50; i++) {
                s += work(i);
            }
            seed = s;
        }

        static int work(int i) {
            return i * 2 + 1;
        }

        static int twice(int x) {
            return x + x;
        }
    }

    static final class Named {
        static int seed;

        static {
            int s = 0;
            for (int i = 0; i < 50; i++) {
                s += step(i);
            }
            seed = s;
        }

        static int step(int i) {
            return i * 3 + 2;
        }
    }

    static int viaResolution(int x) {
        return Cold.twice(x) + 1;
    }

    static int viaForName(String name) throws ClassNotFoundException {
        Class.forName(name);
        return 1;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1 || !(args[0].equals("cold") || args[0].equals("warm"))) {
            throw new IllegalArgumentException("usage: Init cold|warm");
        }
        if (args[0].equals("warm")) {
            Class.forName("deepfix.Init$Cold");
            Class.forName("deepfix.Init$Named");
        }
        int s = viaResolution(5);
        s += viaForName("deepfix.Init$Named");
        System.out.println(s + Cold.seed + Named.seed);
    }
}
