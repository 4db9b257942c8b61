package bench.classfile;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The JDK's own class-file API ({@code java.lang.classfile}, final from Java 24) over every class file of a
 * jar: the peer that benchmarks/speed.py sets beside the engine's copy and round trip.
 *
 * <ul>
 *   <li>copy: {@code ClassFile.of().parse(bytes)}, then {@code transformClass(model, ClassTransform.ACCEPT_ALL)}
 *       (the methods' code is passed on as it was read, not decoded);</li>
 *   <li>round trip: the same with {@code ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL)}:
 *       every method's code is read instruction by instruction and written again.</li>
 * </ul>
 *
 * Each is timed in process CPU (every thread of the JVM: its compilers and collector too) per pass over every
 * class, after three passes of warm-up; the least of {@code REPEAT} samples is printed. The API is
 * reached by reflection, so this compiles with a JDK 17 javac and runs on a Java 24+ runtime.
 *
 * <pre>java -cp . bench.classfile.ClassFileApiThroughput JAR REPEAT</pre>
 */
public final class ClassFileApiThroughput {
    private static long sink;

    public static void main(String[] args) throws Exception {
        List<byte[]> classes = read(args[0]);
        int repeat = Integer.parseInt(args[1]);
        Class<?> classFile = Class.forName("java.lang.classfile.ClassFile");
        Class<?> classModel = Class.forName("java.lang.classfile.ClassModel");
        Class<?> classTransform = Class.forName("java.lang.classfile.ClassTransform");
        Class<?> codeTransform = Class.forName("java.lang.classfile.CodeTransform");
        Object api = classFile.getMethod("of").invoke(null);
        Method parse = classFile.getMethod("parse", byte[].class);
        Method transform = classFile.getMethod("transformClass", classModel, classTransform);
        Object copy = classTransform.getField("ACCEPT_ALL").get(null);
        Object roundTrip = classTransform.getMethod("transformingMethodBodies", codeTransform)
                .invoke(null, codeTransform.getField("ACCEPT_ALL").get(null));
        double copySeconds = best(classes, repeat, api, parse, transform, copy);
        double roundTripSeconds = best(classes, repeat, api, parse, transform, roundTrip);
        System.out.println("{\"classes\": " + classes.size() + ", \"copy\": " + copySeconds
                + ", \"round_trip\": " + roundTripSeconds + ", \"bytes_written\": " + sink
                + ", \"version\": \"" + System.getProperty("java.runtime.version") + "\"}");
    }

    /** Every class file of the jar, in the order of their names. */
    private static List<byte[]> read(String jar) throws IOException {
        TreeMap<String, byte[]> byName = new TreeMap<>();
        try (ZipFile zip = new ZipFile(jar)) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                if (entry.getName().endsWith(".class")) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        byName.put(entry.getName(), in.readAllBytes());
                    }
                }
            }
        }
        return new ArrayList<>(byName.values());
    }

    /**
     * The least process CPU seconds of one pass over every class, of {@code repeat} samples. Three passes warm
     * up first; each sample then runs enough passes to take about two seconds (the process clock ticks in
     * hundredths of a second on Linux) and is divided by their number.
     */
    private static double best(List<byte[]> classes, int repeat, Object api, Method parse, Method transform,
                               Object how) throws Exception {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long pass = 0;
        for (int r = 0; r < 3; r++) {
            long started = os.getProcessCpuTime();
            sweep(classes, api, parse, transform, how);
            pass = os.getProcessCpuTime() - started;
        }
        long passes = Math.max(1, 2_000_000_000L / Math.max(pass, 1_000_000L));
        double least = Double.MAX_VALUE;
        for (int r = 0; r < repeat; r++) {
            long started = os.getProcessCpuTime();
            for (long p = 0; p < passes; p++) {
                sweep(classes, api, parse, transform, how);
            }
            least = Math.min(least, (os.getProcessCpuTime() - started) / 1e9 / passes);
        }
        return least;
    }

    private static void sweep(List<byte[]> classes, Object api, Method parse, Method transform, Object how)
            throws Exception {
        for (byte[] data : classes) {
            byte[] written = (byte[]) transform.invoke(api, parse.invoke(api, (Object) data), how);
            sink += written.length;
        }
    }
}
