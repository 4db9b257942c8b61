package cx.sortloop;

import java.util.Arrays;

/** How many of n scanned barcodes, in shipments of 16, are on a recall list of n barcodes. */
public final class Recall {
    private Recall() {
    }

    public static int countRecalled(int n) {
        int[] recalled = new int[n];
        for (int i = 0; i < n; i++) {
            recalled[i] = (int) ((i * 7919L) % 1000003);
        }
        int found = 0;
        int[] sorted = Arrays.copyOf(recalled, n);
        Arrays.sort(sorted);
        for (int shipment = 0; shipment < n / 16; shipment++) {
            for (int item = 0; item < 16; item++) {
                int barcode = (int) (((shipment * 16L + item) * 104729L) % 1000003);
                if (Arrays.binarySearch(sorted, barcode) >= 0) {
                    found++;
                }
            }
        }
        return found;
    }
}
