package cx.concatfix;

/** A plain-text report of n rows, one line of the same width each. */
public final class Report {
    private Report() {
    }

    public static int render(int n) {
        String text = "";
        for (int i = 0; i < n; i++) {
            text += "row " + (100000 + i) + "\n";
        }
        return text.length();
    }
}
