package bench.jacoco;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.jacoco.core.JaCoCo;
import org.jacoco.core.instr.Instrumenter;
import org.jacoco.core.runtime.OfflineInstrumentationAccessGenerator;

/**
 * JaCoCo's offline instrumentation of every class file under IN, written under OUT at the same path: the
 * coverage probes the overhead benchmark compares counting with. Prints the runtime package the
 * instrumented classes call ({@code JaCoCo.RUNTIMEPACKAGE}), so the benchmark can forward it to the runtime
 * that the installed agent jar holds. When IN is a jar, JaCoCo's {@code instrumentAll} writes the jar OUT
 * with every class in it instrumented (what JaCoCo's offline instrumentation of a whole library costs), and
 * the number of classes instrumented is printed first.
 *
 * <pre>java -cp JACOCO_CORE:ASM:. bench.jacoco.OfflineInstrument IN OUT</pre>
 */
public final class OfflineInstrument {
    public static void main(String[] args) throws IOException {
        Path in = Paths.get(args[0]);
        Path out = Paths.get(args[1]);
        Instrumenter instrumenter = new Instrumenter(new OfflineInstrumentationAccessGenerator());
        if (Files.isRegularFile(in)) {
            try (InputStream input = Files.newInputStream(in); OutputStream output = Files.newOutputStream(out)) {
                System.out.println(instrumenter.instrumentAll(input, output, in.toString()));
            }
            System.out.println(JaCoCo.RUNTIMEPACKAGE);
            return;
        }
        List<Path> classes;
        try (Stream<Path> walk = Files.walk(in)) {
            classes = walk.filter(p -> p.toString().endsWith(".class")).sorted().collect(Collectors.toList());
        }
        for (Path source : classes) {
            Path rel = in.relativize(source);
            byte[] probed = instrumenter.instrument(Files.readAllBytes(source), rel.toString());
            Path target = out.resolve(rel);
            Files.createDirectories(target.getParent());
            Files.write(target, probed);
        }
        System.out.println(JaCoCo.RUNTIMEPACKAGE);
    }
}
