package cat.sortonce;

import java.util.Arrays;

/** Counts the scanned barcodes that are on the manufacturer's recall list. */
public final class Recall {
    private Recall() {
    }

    public static int countRecalled(long[] recallList, long[] scanned) {
        int recalled = 0;
        for (long barcode : scanned) {
            long[] sorted = recallList.clone();
            Arrays.sort(sorted);
            if (Arrays.binarySearch(sorted, barcode) >= 0) {
                recalled++;
            }
        }
        return recalled;
    }
}
