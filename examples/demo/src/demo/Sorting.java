package demo;

/** Count what an insertion sort and a recursive fib really execute. */
public class Sorting {
    public static void insertionSort(int[] a) {
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

    public static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = n - i;  // reversed: the worst case, n(n-1)/2 shifts
        }
        insertionSort(a);
        System.out.println("sorted " + n + " ints; fib(" + n + ") = " + fib(n));
    }
}
