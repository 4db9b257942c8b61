package bench;

import java.util.function.LongSupplier;

/** 100,000 small strings built with + (javac 9+: one invokedynamic makeConcatWithConstants each). */
public final class StringConcat implements LongSupplier {
    static final int N = 100_000;

    public static long concat(int n) {
        long h = 0;
        for (int i = 0; i < n; i++) {
            String s = "k" + i + "=" + (i * 7) + ";";
            h = h * 31 + s.hashCode();
        }
        return h;
    }

    @Override
    public long getAsLong() {
        return concat(N);
    }
}
