package cat.concat;

/** The header line of the catalogue export: every SKU, comma separated. */
public final class CsvLine {
    private CsvLine() {
    }

    public static String join(String[] fields) {
        String line = "";
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                line += ",";
            }
            line += fields[i];
        }
        return line;
    }
}
