/*
 * HotSpot's own verifier as a test oracle for pytest-bytecount (see tests/support/verifier.py).
 *
 *   java -cp DIR VerifyLoader CLASSES OUTPUT [CLASSPATH_ENTRY ...]
 *
 * CLASSES is a zip (or a directory) of <name>.class files, names as corpus.iter_classes gives
 * them. Each class is defined from those bytes in a class loader of its own (child-first:
 * every other class comes from the classpath, so the original class never shadows the one
 * under test), then linked without running <clinit> (JVMS 5.4: linking verifies).
 * OUTPUT gets one JSON object per line:
 *   {"name": N, "phase": "define"|"link", "error": "java.lang.VerifyError", "message": M}
 *   {"name": N, "skipped": REASON}
 *   {"done": COUNT}                           -- last, so a crashed JVM is detectable
 * Compiled by the test session with --release 11, so it runs on HotSpot 17, 25 and Zero.
 */
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.stream.Stream;

public final class VerifyLoader {

    /** Class bytes by resource name ("a/b/C.class"), read once and shared by all loaders. */
    static final class ClassPath {
        private static final byte[] MISSING = new byte[0];
        private final List<Object> entries = new ArrayList<>(); // Path (directory) or ZipFile
        private final ConcurrentHashMap<String, byte[]> cache = new ConcurrentHashMap<>();

        ClassPath(List<String> roots) throws IOException {
            for (String root : roots) {
                Path p = Paths.get(root);
                if (Files.isDirectory(p)) {
                    entries.add(p);
                } else if (Files.isRegularFile(p)) {
                    entries.add(new ZipFile(p.toFile()));
                }
            }
        }

        byte[] find(String resource) {
            byte[] found = cache.computeIfAbsent(resource, this::read);
            return found == MISSING ? null : found;
        }

        private byte[] read(String resource) {
            try {
                for (Object entry : entries) {
                    if (entry instanceof Path) {
                        Path file = ((Path) entry).resolve(resource);
                        if (Files.isRegularFile(file)) {
                            return Files.readAllBytes(file);
                        }
                    } else {
                        ZipFile jar = (ZipFile) entry;
                        ZipEntry ze = jar.getEntry(resource);
                        if (ze != null) {
                            try (InputStream in = jar.getInputStream(ze)) {
                                return in.readAllBytes();
                            }
                        }
                    }
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(resource, e);
            }
            return MISSING;
        }
    }

    /** Defines the class under test from its bytes and every other non-java.* class from the classpath. */
    static final class SubjectLoader extends ClassLoader {
        private final String subject;
        private final byte[] subjectBytes;
        private final ClassPath classPath;

        SubjectLoader(String subject, byte[] subjectBytes, ClassPath classPath) {
            // The platform loader supplies the JDK's own modules (jdk.*, sun.misc, javax.*)
            // for whatever the classpath lacks; java.* can only ever come from the JDK.
            super("bytecount-verify", ClassLoader.getPlatformClassLoader());
            this.subject = subject;
            this.subjectBytes = subjectBytes;
            this.classPath = classPath;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    if (name.equals(subject)) {
                        c = defineClass(name, subjectBytes, 0, subjectBytes.length);
                    } else if (name.startsWith("java.")) {
                        c = getParent().loadClass(name);
                    } else {
                        byte[] b = classPath.find(name.replace('.', '/') + ".class");
                        c = b != null ? defineClass(name, b, 0, b.length) : getParent().loadClass(name);
                    }
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }

    /** "META-INF/versions/9/a/b/C" -> "a.b.C" */
    static String binaryName(String key) {
        String name = key;
        if (name.startsWith("META-INF/versions/")) {
            int slash = name.indexOf('/', "META-INF/versions/".length());
            name = slash < 0 ? name : name.substring(slash + 1);
        }
        return name.replace('/', '.');
    }

    static String skipReason(String binaryName) {
        if (binaryName.equals("module-info") || binaryName.endsWith(".module-info")) {
            return "module-info is not a class: the JVM never defines or verifies it";
        }
        if (binaryName.startsWith("java.")) {
            return "java.* classes cannot be defined by a user class loader (Prohibited package name)";
        }
        return null;
    }

    /** Name (path without ".class") to bytes, in zip or sorted directory order. */
    static Map<String, byte[]> readClasses(Path classes) throws IOException {
        Map<String, byte[]> found = new LinkedHashMap<>();
        if (Files.isDirectory(classes)) {
            List<Path> files = new ArrayList<>();
            try (Stream<Path> walk = Files.walk(classes)) {
                walk.filter(p -> p.toString().endsWith(".class")).sorted().forEach(files::add);
            }
            for (Path file : files) {
                String rel = classes.relativize(file).toString().replace(java.io.File.separatorChar, '/');
                found.put(rel.substring(0, rel.length() - 6), Files.readAllBytes(file));
            }
        } else {
            try (ZipFile zip = new ZipFile(classes.toFile())) {
                for (ZipEntry e : java.util.Collections.list(zip.entries())) {
                    if (!e.isDirectory() && e.getName().endsWith(".class")) {
                        try (InputStream in = zip.getInputStream(e)) {
                            found.put(e.getName().substring(0, e.getName().length() - 6), in.readAllBytes());
                        }
                    }
                }
            }
        }
        return found;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: VerifyLoader CLASSES(.zip|dir) OUTPUT [CLASSPATH_ENTRY ...]");
            System.exit(2);
        }
        Map<String, byte[]> classes = readClasses(Paths.get(args[0]));
        List<String> roots = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            roots.add(args[i]);
        }
        ClassPath classPath = new ClassPath(roots);
        try (Writer out = Files.newBufferedWriter(Paths.get(args[1]), StandardCharsets.UTF_8)) {
            for (Map.Entry<String, byte[]> entry : classes.entrySet()) {
                String key = entry.getKey();
                String name = binaryName(key);
                String skip = skipReason(name);
                if (skip != null) {
                    out.write("{\"name\": " + json(key) + ", \"skipped\": " + json(skip) + "}\n");
                    continue;
                }
                byte[] bytes = entry.getValue();
                String phase = "define";
                try {
                    Class<?> c = Class.forName(name, false, new SubjectLoader(name, bytes, classPath));
                    phase = "link";
                    // JVM_GetClassDeclaredMethods links the class first (verifying every
                    // method) and never initializes it.
                    c.getDeclaredMethods();
                } catch (Throwable t) {
                    out.write("{\"name\": " + json(key) + ", \"phase\": " + json(phase)
                            + ", \"error\": " + json(t.getClass().getName())
                            + ", \"message\": " + json(describe(t)) + "}\n");
                }
            }
            out.write("{\"done\": " + classes.size() + "}\n");
        }
    }

    /** The message, plus the causes' when they add something (e.g. ClassNotFoundException). */
    static String describe(Throwable t) {
        StringBuilder sb = new StringBuilder(String.valueOf(t.getMessage()));
        for (Throwable c = t.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            if (c.getMessage() != null && !sb.toString().contains(c.getMessage())) {
                sb.append("\ncaused by ").append(c.getClass().getName()).append(": ").append(c.getMessage());
            }
        }
        return sb.toString();
    }

    static String json(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                default:
                    if (ch < 0x20) {
                        sb.append(String.format("\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
            }
        }
        return sb.append('"').toString();
    }
}
