package cx.concatfix;

/** A plain-text report of n rows, one line of the same width each. */
public final class Report {
    private Report() {
    }

    public static int render(int n) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < n; i++) {
            text.append("row ").append(100000 + i).append('\n');
        }
        return text.length();
    }
}
