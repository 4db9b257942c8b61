package limits;

/**
 * Known allocations: {@code make(n)} creates one StringBuilder, one int[n], one String[2n], one
 * int[n][3] (multianewarray; its outer length is n), and n Integer-free objects of a nested class.
 * main calls make(1), make(4) and make(10), so by hand: objects StringBuilder 3 and Allocs$Cell 15;
 * arrays [I 3 (lengths 15), [Ljava/lang/String; 3 (lengths 30), [[I 3 (outer lengths 15).
 */
public final class Allocs {
    static final class Cell {
        final int v;

        Cell(int v) {
            this.v = v;
        }
    }

    static int make(int n) {
        StringBuilder sb = new StringBuilder();
        int[] a = new int[n];
        String[] s = new String[2 * n];
        int[][] grid = new int[n][3];
        int sum = 0;
        for (int i = 0; i < n; i++) {
            Cell c = new Cell(i);
            a[i] = c.v;
            sum += a[i] + grid[i].length + (s[i] == null ? 1 : 0);
        }
        sb.append(sum);
        return sb.length();
    }

    public static void main(String[] args) {
        System.out.println(make(1) + make(4) + make(10));
    }
}
