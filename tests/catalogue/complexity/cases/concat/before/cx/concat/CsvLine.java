package cx.concat;

/** One CSV line of n numeric fields. */
public final class CsvLine {
    private CsvLine() {
    }

    public static int join(int n) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < n; i++) {
            line.append((i * 13) % 1000).append(',');
        }
        return line.length();
    }
}
