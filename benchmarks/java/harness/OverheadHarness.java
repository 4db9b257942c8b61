package bench.harness;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Times one kernel class loaded several times in this JVM: from the original classes, and from each
 * counted directory put ahead of them. Every loader's parent is the platform loader, so the copies never
 * see each other (this harness, on the application class path, is not on theirs).
 *
 * <pre>java bench.harness.OverheadHarness KERNEL ORIGINAL_DIR NAME=COUNTED_DIR... [option=value...]</pre>
 *
 * Options: warmup-min-s, warmup-max-s, measure-s, min-runs, max-runs. Runs alternate between the
 * variants (A, B, A, B, ...) during warm-up and measurement. Warm-up ends once every variant's median
 * over a block of 5 rounds is within 3% of its previous block's (or at warmup-max-s). Prints one JSON
 * object: per variant the median, quartiles and run count, plus for counted variants every counter: the
 * {@code snapshot()} of each Counters class the variant's folder lists in {@code pytest_bytecount/counters.list}
 * (one class name a line), one after the other. Exits 2 if checksums differ or a counted variant counted
 * nothing. Variants named {@code ref-...} are references not counted by us: timed only, except that one
 * whose class path holds JaCoCo's agent runtime ({@code org.jacoco.agent.rt.RT}) reports its probes hit and
 * probes in all (read through JaCoCo's API: {@code RT.getAgent().getExecutionData(false)} parsed by
 * {@code org.jacoco.core.tools.ExecFileLoader}), and exits 2 if no probe was hit.
 */
public final class OverheadHarness {
    private static final int BLOCK = 5;

    public static void main(String[] args) throws Exception {
        String kernel = args[0];
        List<String> names = new ArrayList<>();
        List<URLClassLoader> loaders = new ArrayList<>();
        names.add("original");
        loaders.add(loader(new File(args[1])));
        double warmupMin = 2, warmupMax = 15, measure = 3;
        int minRuns = 15, maxRuns = 1000;
        for (int i = 2; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            switch (kv[0]) {
                case "warmup-min-s": warmupMin = Double.parseDouble(kv[1]); break;
                case "warmup-max-s": warmupMax = Double.parseDouble(kv[1]); break;
                case "measure-s": measure = Double.parseDouble(kv[1]); break;
                case "min-runs": minRuns = Integer.parseInt(kv[1]); break;
                case "max-runs": maxRuns = Integer.parseInt(kv[1]); break;
                default:
                    names.add(kv[0]);
                    // a variant's classes come first, then any jars it needs (after a path separator), then
                    // the original classes
                    List<File> path = new ArrayList<>();
                    for (String entry : kv[1].split(File.pathSeparator)) {
                        path.add(new File(entry));
                    }
                    path.add(new File(args[1]));
                    loaders.add(loader(path.toArray(new File[0])));
            }
        }
        int v = names.size();
        LongSupplier[] runs = new LongSupplier[v];
        for (int i = 0; i < v; i++) {
            Class<?> cls = Class.forName(kernel, true, loaders.get(i));
            if (cls.getClassLoader() != loaders.get(i)) {
                throw new IllegalStateException(kernel + " was not loaded by the " + names.get(i) + " loader");
            }
            runs[i] = (LongSupplier) cls.getDeclaredConstructor().newInstance();
        }
        long expected = runs[0].getAsLong();
        long[] runsPerVariant = new long[v];
        runsPerVariant[0] = 1;
        for (int i = 1; i < v; i++) {
            check(kernel, names.get(i), expected, runs[i].getAsLong());
            runsPerVariant[i]++;
        }

        // warm-up: alternate until every variant's block median settles
        long start = System.nanoTime();
        double[] previous = new double[v];
        int warmupRounds = 0;
        boolean stable = false;
        while (true) {
            long[][] block = new long[v][BLOCK];
            for (int r = 0; r < BLOCK; r++) {
                for (int i = 0; i < v; i++) {
                    long t = System.nanoTime();
                    long result = runs[i].getAsLong();
                    block[i][r] = System.nanoTime() - t;
                    check(kernel, names.get(i), expected, result);
                    runsPerVariant[i]++;
                }
            }
            warmupRounds += BLOCK;
            stable = warmupRounds > BLOCK;
            for (int i = 0; i < v; i++) {
                double m = median(block[i]);
                stable &= Math.abs(m - previous[i]) <= 0.03 * previous[i];
                previous[i] = m;
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            if ((stable && elapsed >= warmupMin) || elapsed >= warmupMax) {
                break;
            }
        }
        double warmupSeconds = (System.nanoTime() - start) / 1e9;

        // measurement: alternate again, every run timed alone
        System.gc();
        long[][] times = new long[v][maxRuns];
        int n = 0;
        start = System.nanoTime();
        while (n < maxRuns && (n < minRuns || System.nanoTime() - start < measure * 1e9)) {
            for (int i = 0; i < v; i++) {
                long t = System.nanoTime();
                long result = runs[i].getAsLong();
                times[i][n] = System.nanoTime() - t;
                check(kernel, names.get(i), expected, result);
                runsPerVariant[i]++;
            }
            n++;
        }

        StringBuilder json = new StringBuilder();
        json.append("{\"kernel\": \"").append(kernel).append("\"")
            .append(", \"java_version\": \"").append(System.getProperty("java.version")).append("\"")
            .append(", \"vm\": \"").append(System.getProperty("java.vm.name")).append(' ')
            .append(System.getProperty("java.vm.version")).append("\"")
            .append(", \"warmup_rounds\": ").append(warmupRounds)
            .append(", \"warmup_stable\": ").append(stable)
            .append(", \"warmup_s\": ").append(warmupSeconds)
            .append(", \"checksum\": ").append(expected)
            .append(", \"variants\": [");
        for (int i = 0; i < v; i++) {
            long[] t = Arrays.copyOf(times[i], n);
            Arrays.sort(t);
            json.append(i == 0 ? "" : ", ").append("{\"name\": \"").append(names.get(i)).append("\"")
                .append(", \"runs_timed\": ").append(n)
                .append(", \"runs_total\": ").append(runsPerVariant[i])
                .append(", \"median_ns\": ").append(median(t))
                .append(", \"q1_ns\": ").append(t[n / 4])
                .append(", \"q3_ns\": ").append(t[(3 * n) / 4]);
            if (i > 0 && !names.get(i).startsWith("ref-")) {
                long[] counts = counters(loaders.get(i));
                long sum = 0;
                json.append(", \"counts\": [");
                for (int k = 0; k < counts.length; k++) {
                    json.append(k == 0 ? "" : ", ").append(counts[k]);
                    sum += counts[k];
                }
                json.append("]");
                if (sum == 0) {
                    System.out.println(json);
                    System.err.println(kernel + ": the " + names.get(i) + " variant counted nothing");
                    System.exit(2);
                }
            }
            if (i > 0 && names.get(i).startsWith("ref-") && hasJacoco(loaders.get(i))) {
                int[] probes = jacocoProbes(loaders.get(i));
                json.append(", \"probes_hit\": ").append(probes[0]).append(", \"probes\": ").append(probes[1]);
                if (probes[0] == 0) {
                    System.out.println(json);
                    System.err.println(kernel + ": the " + names.get(i) + " variant hit none of its "
                        + probes[1] + " JaCoCo probes");
                    System.exit(2);
                }
            }
            json.append("}");
        }
        json.append("]}");
        System.out.println(json);
    }

    private static URLClassLoader loader(File... dirs) throws Exception {
        URL[] urls = new URL[dirs.length];
        for (int i = 0; i < dirs.length; i++) {
            urls[i] = dirs[i].toURI().toURL();
        }
        return new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
    }

    private static long[] counters(ClassLoader loader) throws Exception {
        List<long[]> parts = new ArrayList<>();
        int size = 0;
        try (InputStream list = loader.getResourceAsStream("pytest_bytecount/counters.list")) {
            String text = new String(list.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            for (String name : text.split("\n")) {
                if (name.isEmpty()) {
                    continue;
                }
                Class<?> cls = Class.forName(name, true, loader);
                long[] values = (long[]) cls.getMethod("snapshot").invoke(null);
                parts.add(values);
                size += values.length;
            }
        }
        long[] all = new long[size];
        int at = 0;
        for (long[] values : parts) {
            System.arraycopy(values, 0, all, at, values.length);
            at += values.length;
        }
        return all;
    }

    private static boolean hasJacoco(URLClassLoader loader) {
        return loader.findResource("org/jacoco/agent/rt/RT.class") != null;
    }

    /** {probes hit, probes} over every class JaCoCo's runtime in this loader has probe arrays for. */
    private static int[] jacocoProbes(ClassLoader loader) throws Exception {
        Object agent;
        try {
            agent = Class.forName("org.jacoco.agent.rt.RT", true, loader).getMethod("getAgent").invoke(null);
        } catch (InvocationTargetException e) {  // IllegalStateException: no probed class ever started it
            return new int[] {0, 0};
        }
        Method dump = Class.forName("org.jacoco.agent.rt.IAgent", true, loader)
            .getMethod("getExecutionData", boolean.class);
        byte[] exec = (byte[]) dump.invoke(agent, false);
        Class<?> loaderClass = Class.forName("org.jacoco.core.tools.ExecFileLoader", true, loader);
        Object reader = loaderClass.getDeclaredConstructor().newInstance();
        loaderClass.getMethod("load", InputStream.class).invoke(reader, new ByteArrayInputStream(exec));
        Object store = loaderClass.getMethod("getExecutionDataStore").invoke(reader);
        Collection<?> classes = (Collection<?>) store.getClass().getMethod("getContents").invoke(store);
        Method probesOf = Class.forName("org.jacoco.core.data.ExecutionData", true, loader).getMethod("getProbes");
        int hit = 0, all = 0;
        for (Object data : classes) {
            for (boolean probe : (boolean[]) probesOf.invoke(data)) {
                all++;
                hit += probe ? 1 : 0;
            }
        }
        return new int[] {hit, all};
    }

    private static void check(String kernel, String variant, long expected, long actual) {
        if (actual != expected) {
            System.err.println(kernel + ": the " + variant + " variant returned " + actual + ", the original " + expected);
            System.exit(2);
        }
    }

    private static double median(long[] values) {
        long[] s = values.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
    }
}
