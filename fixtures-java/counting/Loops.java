package counting;

/**
 * Loops of every shape javac emits: for, while, do-while, nested, labeled, enhanced for, and loops
 * whose head is the first instruction (pc 0 is a branch target, so code inserted "before pc 0" must
 * run once per invocation, not once per iteration).
 */
public class Loops {
    static int steps;

    /** A while loop as the first statement: javac tests the condition at pc 0 and jumps back to it. */
    public static int collatz(int n) {
        while (n != 1) {
            n = (n & 1) == 0 ? n >> 1 : 3 * n + 1;
            steps++;
        }
        return steps;
    }

    /** A do-while body at pc 0: the backward branch goes to 0. */
    public static int digitSum(int n, int[] acc) {
        do {
            acc[0] += n % 10;
            n /= 10;
        } while (n != 0);
        return acc[0];
    }

    public static int forWithContinue(int n) {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            if (i % 3 == 0) {
                continue;
            }
            sum += i;
        }
        return sum;
    }

    public static int nested(int n) {
        int count = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                if (((i + j) & 1) == 0) {
                    count += j;
                } else {
                    count -= 1;
                }
            }
        }
        return count;
    }

    /** break and continue to an outer label. */
    public static int labeled(int[][] grid, int target) {
        int found = -1;
        int skipped = 0;
        outer:
        for (int r = 0; r < grid.length; r++) {
            for (int c = 0; c < grid[r].length; c++) {
                if (grid[r][c] == target) {
                    found = r * 100 + c;
                    break outer;
                }
                if (grid[r][c] < 0) {
                    skipped++;
                    continue outer;
                }
            }
        }
        return found * 1000 + skipped;
    }

    public static long whileLong(long x) {
        long r = 1;
        while (x > 0) {
            r = r * 3 + x;
            x -= 7;
        }
        return r;
    }

    public static int enhancedFor(int[] values) {
        int max = Integer.MIN_VALUE;
        for (int v : values) {
            if (v > max) {
                max = v;
            }
        }
        return max;
    }

    /** for (;;) left by break; the do-while inside runs at least once. */
    public static int foreverWithBreak(int n) {
        int i = 0;
        int inner = 0;
        for (;;) {
            i++;
            int k = i;
            do {
                inner++;
                k >>= 1;
            } while (k > 0);
            if (i * i > n) {
                break;
            }
        }
        return i * 1000 + inner;
    }

    public static void main(String[] args) {
        long check = 0;
        for (int n = 1; n <= 30; n++) {
            check += collatz(n);
        }
        int[] acc = new int[1];
        for (int n = 0; n < 2000; n += 97) {
            check += digitSum(n, acc);
        }
        for (int n = 0; n < 40; n += 7) {
            check += forWithContinue(n) + nested(n % 12);
        }
        int[][] grid = {{1, 2, 3, 4}, {5, -6, 7, 8}, {9, 10, 11, 12}, {-13, 14, 15, 16}};
        int[] targets = {3, 7, 11, 15, 99, 1};
        for (int t : targets) {
            check += labeled(grid, t);
        }
        for (long x = -5; x < 60; x += 11) {
            check += whileLong(x);
        }
        check += enhancedFor(new int[] {3, -1, 8, 8, 2, 11, 0}) + enhancedFor(new int[0]);
        for (int n = 0; n < 200; n += 23) {
            check += foreverWithBreak(n);
        }
        System.out.println("Loops " + check);
    }
}
