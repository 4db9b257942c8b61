package bench;

import java.util.function.LongSupplier;

/** 100,000 small appends to one StringBuilder. */
public final class StringBuilding implements LongSupplier {
    static final int N = 100_000;

    public static String build(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append("k").append(i).append('=').append(i * 7).append(';');
        }
        return sb.toString();
    }

    @Override
    public long getAsLong() {
        String s = build(N);
        return s.length() * 31L + s.hashCode();
    }
}
