package bench;

import java.util.function.LongSupplier;

/** Insertion sort of 10,000 shuffled ints; each run sorts a fresh copy (the copy is not counted). */
public final class InsertionSort implements LongSupplier {
    static final int N = 10_000;
    private final int[] input = new int[N];

    public InsertionSort() {
        for (int i = 0; i < N; i++) {
            input[i] = i;
        }
        Lcg random = new Lcg(7);
        for (int i = N - 1; i > 0; i--) {  // Fisher-Yates, fixed seed: every run sorts the same input
            int j = (int) (random.nextDouble() * (i + 1));
            int t = input[i];
            input[i] = input[j];
            input[j] = t;
        }
    }

    public static void sort(int[] a) {
        for (int i = 1; i < a.length; i++) {
            int x = a[i];
            int j = i - 1;
            while (j >= 0 && a[j] > x) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = x;
        }
    }

    @Override
    public long getAsLong() {
        int[] a = input.clone();
        sort(a);
        long h = 0;
        for (int v : a) {
            h = h * 31 + v;
        }
        return h;
    }
}
