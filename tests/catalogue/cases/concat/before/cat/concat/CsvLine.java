package cat.concat;

/** The header line of the catalogue export: every SKU, comma separated. */
public final class CsvLine {
    private CsvLine() {
    }

    public static String join(String[] fields) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                line.append(',');
            }
            line.append(fields[i]);
        }
        return line.toString();
    }
}
