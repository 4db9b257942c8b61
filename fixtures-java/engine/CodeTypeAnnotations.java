package engine;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.List;

/**
 * Type annotations inside method bodies. The Code attribute's RuntimeVisibleTypeAnnotations point
 * at bytecode offsets (new, instanceof, checkcast targets) and at local variable ranges
 * (JVMS 4.7.20.1), so they must move with the code or be dropped.
 */
public class CodeTypeAnnotations {
    @Target(ElementType.TYPE_USE)
    @Retention(RetentionPolicy.RUNTIME)
    public @interface Tag {
    }

    public static int annotatedBody(Object o, int n) {
        @Tag List<String> names = new @Tag ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add("n" + i);
        }
        if (o instanceof @Tag String) {
            @Tag String s = (@Tag String) o;
            names.add(s);
        }
        try {
            names.get(n + 10);
        } catch (@Tag IndexOutOfBoundsException e) {
            return -names.size();
        }
        return names.size();
    }
}
