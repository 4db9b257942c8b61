package demo;

/** Binary search: about log2(n) turns of its loop for an array of n sorted ints. */
public class Search {
    /** The index of {@code key} in the ascending array {@code sorted}, or -1 when it is not there. */
    public static int indexOf(int[] sorted, int key) {
        int lo = 0;
        int hi = sorted.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < key) {
                lo = mid + 1;
            } else if (sorted[mid] > key) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }
}
