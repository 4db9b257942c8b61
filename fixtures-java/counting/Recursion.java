package counting;

/** Recursion: every level is its own invocation of the same method, and all of them are summed. */
public class Recursion {
    static int moves;

    /** A binary tree node; the recursive methods on it are instance methods (invokevirtual). */
    static class Node {
        final int value;
        final Node left;
        final Node right;

        Node(int value, Node left, Node right) {
            this.value = value;
            this.left = left;
            this.right = right;
        }

        int sum() {
            int s = value;
            if (left != null) {
                s += left.sum();
            }
            if (right != null) {
                s += right.sum();
            }
            return s;
        }

        int depth() {
            int l = left == null ? 0 : left.depth();
            int r = right == null ? 0 : right.depth();
            return 1 + (l > r ? l : r);
        }
    }

    public static int fib(int n) {
        if (n < 2) {
            return n;
        }
        return fib(n - 1) + fib(n - 2);
    }

    public static int ackermann(int m, int n) {
        if (m == 0) {
            return n + 1;
        }
        if (n == 0) {
            return ackermann(m - 1, 1);
        }
        return ackermann(m - 1, ackermann(m, n - 1));
    }

    public static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    public static boolean isEven(int n) {
        return n == 0 || isOdd(n - 1);
    }

    public static boolean isOdd(int n) {
        return n != 0 && isEven(n - 1);
    }

    public static void hanoi(int n, int from, int to, int via) {
        if (n == 0) {
            return;
        }
        hanoi(n - 1, from, via, to);
        moves++;
        hanoi(n - 1, via, to, from);
    }

    /** Balanced tree over values[lo..hi). */
    static Node build(int[] values, int lo, int hi) {
        if (lo >= hi) {
            return null;
        }
        int mid = (lo + hi) >>> 1;
        return new Node(values[mid], build(values, lo, mid), build(values, mid + 1, hi));
    }

    /** Counts permutations of a[k..] by swapping in place (recursion inside a loop). */
    static int permutations(int[] a, int k) {
        if (k == a.length) {
            return 1;
        }
        int count = 0;
        for (int i = k; i < a.length; i++) {
            int t = a[k];
            a[k] = a[i];
            a[i] = t;
            count += permutations(a, k + 1);
            a[i] = a[k];
            a[k] = t;
        }
        return count;
    }

    public static void main(String[] args) {
        long check = 0;
        for (int n = 0; n <= 12; n++) {
            check = check * 3 + fib(n);
        }
        for (int n = 0; n <= 3; n++) {
            check = check * 3 + ackermann(2, n);
        }
        check += ackermann(3, 2);
        check += gcd(1071, 462) + gcd(832040, 514229) + gcd(7, 0);
        for (int n = 0; n < 15; n++) {
            check = check * 3 + (isEven(n) ? 1 : 0) + (isOdd(n) ? 2 : 0);
        }
        hanoi(6, 1, 3, 2);
        int[] values = new int[20];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 7 % 11;
        }
        Node root = build(values, 0, values.length);
        check += root.sum() * 100 + root.depth();
        check += permutations(new int[] {1, 2, 3, 4, 5}, 0);
        System.out.println("Recursion " + check + " moves=" + moves);
    }
}
