package guard;

/** Code for the hardening tests: work that counts, a Java exception, and two ways to kill the JVM. */
public class Work {
    /** 9 + 9n instructions (javac): the tests check recorded baselines against this. */
    public static int work(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) s += i;
        return s;
    }

    public static int boom(int n) {
        if (n > 0) throw new IllegalStateException("boom at " + n);
        return n;
    }

    /** Ends the process at once: no Java shutdown hooks, no Python cleanup. */
    public static void halt() {
        Runtime.getRuntime().halt(7);
    }

    /** A native crash: a write to address 0 (SIGSEGV in the JVM, which then aborts the process). */
    public static void segfault() throws Exception {
        java.lang.reflect.Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        ((sun.misc.Unsafe) f.get(null)).putAddress(0L, 0L);
    }
}
