package scaling;

/** O(2^n): naive recursion over take / skip of each element; an unreachable target visits all 2^n subsets. */
public class SubsetSum {
    public static boolean exists(int[] a, int target) {
        return from(a, 0, target);
    }

    private static boolean from(int[] a, int i, int target) {
        if (target == 0) {
            return true;
        }
        if (i == a.length) {
            return false;
        }
        return from(a, i + 1, target - a[i]) || from(a, i + 1, target);
    }
}
