package scaling;

/** O(n): one pass over the array. */
public class Linear {
    public static long sum(int[] a) {
        long s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
        }
        return s;
    }
}
