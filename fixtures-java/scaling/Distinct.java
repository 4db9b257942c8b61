package scaling;

/**
 * Quadratic only above a threshold: values in 0..63 are counted with a bit mask in one pass (O(n)); the
 * first other value sends the whole array to a pairwise comparison (O(n^2)). For a = {0, 1, ..., n - 1}
 * that is linear up to n = 64 and quadratic from n = 65 on. One method, so the flat view sees both paths.
 */
public class Distinct {
    public static int count(int[] a) {
        long mask = 0;
        boolean small = true;
        for (int i = 0; i < a.length && small; i++) {
            if (a[i] < 0 || a[i] >= 64) {
                small = false;
            } else {
                mask |= 1L << a[i];
            }
        }
        if (small) {
            return Long.bitCount(mask);
        }
        int count = 0;
        for (int i = 0; i < a.length; i++) {
            boolean seen = false;
            for (int j = 0; j < i && !seen; j++) {
                seen = a[j] == a[i];
            }
            if (!seen) {
                count++;
            }
        }
        return count;
    }
}
