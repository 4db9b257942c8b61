package scaling;

/** O(n log n): top-down merge sort; sort() recurses, merge() does the work of one level. */
public class MergeSort {
    public static void sort(int[] a) {
        sort(a, new int[a.length], 0, a.length);
    }

    private static void sort(int[] a, int[] tmp, int from, int to) {
        if (to - from < 2) {
            return;
        }
        int mid = (from + to) >>> 1;
        sort(a, tmp, from, mid);
        sort(a, tmp, mid, to);
        merge(a, tmp, from, mid, to);
    }

    private static void merge(int[] a, int[] tmp, int from, int mid, int to) {
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && a[i] <= a[j])) {
                tmp[k] = a[i++];
            } else {
                tmp[k] = a[j++];
            }
        }
        System.arraycopy(tmp, from, a, from, to - from);
    }
}
