package cat.inccall;

/** Small sorting helpers of the monitoring module. */
public final class Sorting {
    private Sorting() {
    }

    /** A sorted copy, by insertion: for the short lists of the status page. */
    public static int[] insertionSorted(int[] values) {
        int[] sorted = values.clone();
        for (int i = 1; i < sorted.length; i++) {
            int value = sorted[i];
            int j = i - 1;
            while (j >= 0 && sorted[j] > value) {
                sorted[j + 1] = sorted[j];
                j--;
            }
            sorted[j + 1] = value;
        }
        return sorted;
    }
}
