package bytecountoracle;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Runs a workload under the bytecount_oracle agent: {@code OracleDriver N C1 .. CN MAIN ARGS...}.
 *
 * <p>It first initialises the N target classes (binary names) itself, because HotSpot posts no
 * SingleStep events inside a {@code <clinit>} that runs while the interpreter resolves a
 * constant-pool entry, and only then calls {@code MAIN.main(ARGS)}. Compiled with --release 8 so
 * that one build runs on every JVM under test.
 */
public final class OracleDriver {
    private OracleDriver() {}

    public static void main(String[] args) throws Throwable {
        int n = Integer.parseInt(args[0]);
        ClassLoader loader = ClassLoader.getSystemClassLoader();
        for (int i = 1; i <= n; i++) {
            Class.forName(args[i], true, loader);
        }
        Class<?> mainClass = Class.forName(args[n + 1], true, loader);
        String[] mainArgs = new String[args.length - n - 2];
        System.arraycopy(args, n + 2, mainArgs, 0, mainArgs.length);
        Method main = mainClass.getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) mainArgs);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
