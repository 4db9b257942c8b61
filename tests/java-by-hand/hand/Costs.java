package hand;

/** Methods whose weighted cost tests/regression/test_weights.py derives by hand from javap and the weight tables. */
public class Costs {
    public static int average(int[] a) {
        int s = 0;
        for (int x : a) {
            s += x;
        }
        return s / a.length;
    }

    public static String label(int n) {
        StringBuilder b = new StringBuilder();
        b.append(n);
        return b.toString();
    }

    public static void main(String[] args) {
        average(new int[] {4, 5, 6});
        label(7);
        label(8);
    }
}
