package cx.binsearch;

/** How many of n payments match an entry of a ledger of n entries sorted by amount. */
public final class Ledger {
    private Ledger() {
    }

    public static int matched(int n) {
        int[] ledger = new int[n];
        for (int i = 0; i < n; i++) {
            ledger[i] = 3 * i + 1;
        }
        int matched = 0;
        for (int p = 0; p < n; p++) {
            int amount = (int) ((p * 7919L) % (3L * n));
            for (int i = 0; i < n && ledger[i] <= amount; i++) {
                if (ledger[i] == amount) {
                    matched++;
                    break;
                }
            }
        }
        return matched;
    }
}
