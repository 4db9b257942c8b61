package counting;

/**
 * Loops whose counts per block may be taken from the change of the loop's own int locals (derived
 * counts), and loops built to break that derivation: a loop variable also written elsewhere in the loop,
 * a break out of a nested loop, an exception thrown out of a loop and caught around it, continue, counters
 * near Integer.MAX_VALUE that wrap, loops over longs, decrementing loops, steps of 2, bounds that admit
 * Integer.MAX_VALUE, a switch leaving a loop, and a loop that is the method's first instruction.
 */
public class Derived {
    static int sink;

    /** The plain shape: the latch's count is i's change. */
    public static int sumTo(int n) {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            sum += i;
        }
        return sum;
    }

    /** Monte Carlo's shape: a counter bumped in one arm of a diamond inside a counted loop. */
    public static int inside(int samples, int seed) {
        int under = 0;
        int s = seed;
        for (int i = 0; i < samples; i++) {
            s = s * 1103515245 + 12345;
            if ((s >>> 16 & 1023) < 700) {
                under++;
            }
        }
        return under;
    }

    /** Both operands are locals, the loop variable second: `n > i`. */
    public static int swapped(int n) {
        int odd = 0;
        for (int i = 0; n > i; i++) {
            if ((i & 1) == 1) {
                odd--;
            }
        }
        return odd;
    }

    /** The loop variable is also stored to inside the loop (a jump ahead), and bumped twice in one pass. */
    public static int writtenElsewhere(int n) {
        int hits = 0;
        for (int i = 0; i < n; i++) {
            if (i % 7 == 3) {
                i = i + 2;
                hits++;
            }
            if (i % 11 == 5) {
                i++;
            }
        }
        return hits;
    }

    /** A counter changed by +2 and -1 in one block (a net step of 1), and one changed by 2. */
    public static int netSteps(int n) {
        int a = 0;
        int b = 0;
        for (int i = 0; i < n; i++) {
            if ((i & 3) != 0) {
                a += 2;
                a--;
            } else {
                b += 2;
            }
        }
        return a * 1000 + b;
    }

    /** break out of a nested loop to an outer label, and continue to it. */
    public static int breakNested(int[][] grid, int target) {
        int seen = 0;
        int skipped = 0;
        outer:
        for (int r = 0; r < grid.length; r++) {
            for (int c = 0; c < grid[r].length; c++) {
                seen++;
                if (grid[r][c] == target) {
                    break outer;
                }
                if (grid[r][c] < 0) {
                    skipped++;
                    continue outer;
                }
            }
        }
        return seen * 100 + skipped;
    }

    /** An instruction on the loop's cycle throws to a handler outside the loop. */
    public static int divideAround(int[] values) {
        int total = 0;
        int i = 0;
        try {
            for (i = 0; i < values.length; i++) {
                total += 100 / values[i];
            }
        } catch (ArithmeticException e) {
            total = -total - i;
        }
        return total;
    }

    /**
     * An exception thrown out of a loop and caught around it: the block that throws is not on the loop's
     * cycle, so the loop is left by a branch to it.
     */
    public static int caughtAround(int n, int failAt) {
        int done = 0;
        try {
            for (int i = 0; i < n; i++) {
                if (i == failAt) {
                    throw new IllegalStateException("at " + i);
                }
                done++;
            }
        } catch (IllegalStateException e) {
            done += 1000;
        }
        return done;
    }

    /** An exception thrown and caught inside the loop's body (the handler is in the loop). */
    public static int caughtInside(int[] values) {
        int failures = 0;
        int total = 0;
        for (int i = 0; i < values.length; i++) {
            try {
                total += 100 / values[i];
            } catch (ArithmeticException e) {
                failures++;
            }
        }
        return total * 10 + failures;
    }

    /** continue in a for loop (it still runs i++), and in a while loop where it skips the i++. */
    public static int continues(int n) {
        int kept = 0;
        for (int i = 0; i < n; i++) {
            if (i % 3 == 0) {
                continue;
            }
            kept++;
        }
        int j = 0;
        int rounds = 0;
        while (j < n) {
            rounds++;
            if (rounds % 4 == 0) {
                continue;
            }
            j++;
        }
        return kept * 1000 + rounds;
    }

    /** The loop variable runs up to Integer.MAX_VALUE, and a counter wraps from MAX_VALUE to MIN_VALUE. */
    public static int nearMax() {
        int wrapping = Integer.MAX_VALUE - 3;
        int low = 0;
        for (int i = Integer.MAX_VALUE - 10; i < Integer.MAX_VALUE; i++) {
            wrapping++;
            if (wrapping < 0) {
                low++;
            }
        }
        int down = Integer.MIN_VALUE + 2;
        for (int k = 0; k < 6; k++) {
            down--;
        }
        return wrapping + low + down;
    }

    /** `<=` against a constant bounds the loop; `<=` and `!=` against a variable do not. */
    public static int bounds(int n) {
        int a = 0;
        for (int i = 0; i <= 12; i++) {
            a++;
        }
        for (int i = 0; i <= n; i++) {
            a++;
        }
        for (int i = 0; i != n; i++) {
            a++;
        }
        return a;
    }

    /** Loops over longs: no int guard bounds them. */
    public static long overLongs(long n) {
        int small = 0;
        long big = 0;
        for (long k = 0; k < n; k++) {
            small++;
            big += k;
        }
        return small + big;
    }

    /** Decrementing loops: a for loop down to 0, and insertion sort's inner while loop. */
    public static int decrementing(int[] a) {
        int swaps = 0;
        for (int i = a.length - 1; i > 0; i--) {
            swaps--;
        }
        for (int i = 1; i < a.length; i++) {
            int x = a[i];
            int j = i - 1;
            while (j >= 0 && a[j] > x) {
                a[j + 1] = a[j];
                j--;
                swaps++;
            }
            a[j + 1] = x;
        }
        return swaps;
    }

    /** A step of 2: may wrap past Integer.MAX_VALUE, so it guards nothing. */
    public static int stepTwo(int n) {
        int c = 0;
        for (int i = 0; i < n; i += 2) {
            c++;
        }
        return c;
    }

    /** A loop whose test is the method's first instruction, on a parameter. */
    public static int countdown(int n, int s) {
        while (n > 0) {
            n--;
            s++;
        }
        return s;
    }

    /** Two loops in a row: the first one's exit jumps straight into the second one's test. */
    public static int twoInARow(int n) {
        int a = 0;
        int b = 0;
        while (a < n) {
            a++;
        }
        while (b < n + 3) {
            b++;
        }
        return a * 100 + b;
    }

    /** One branch enters two loops: its jump the second one's test, its fall-through the first one's. */
    public static int eitherWay(int n, int k, boolean first) {
        if (first) {
            while (n > 0) {
                n--;
            }
        } else {
            while (k > 0) {
                k--;
            }
        }
        return n * 100 + k;
    }

    /**
     * A do-while whose body starts with a loop and which is followed by one: its test jumps back into the
     * first loop's test or falls into the second one's (code on both edges of one branch).
     */
    public static int doAroundWhile(int n) {
        int i = 0;
        int j = 0;
        int k = 0;
        do {
            while (j < n) {
                j++;
            }
            j = i;
            i++;
        } while (i < 3);
        while (k < n) {
            k++;
        }
        return i * 10000 + j * 100 + k;
    }

    /** A return from inside a loop, and a switch inside a loop, one of whose cases leaves the loop. */
    public static int leaving(int[] codes) {
        int seen = 0;
        for (int i = 0; i < codes.length; i++) {
            switch (codes[i]) {
                case 0:
                    seen++;
                    break;
                case 1:
                    seen += 10;
                    break;
                case 7:
                    return -seen;
                default:
                    seen--;
            }
        }
        outer:
        for (int i = 0; i < codes.length; i++) {
            switch (codes[i]) {
                case 3:
                    break outer;
                case 4:
                    seen += 4;
                    break;
                default:
                    seen++;
            }
        }
        return seen;
    }

    /** Nested loops with many visits: the inner loop is entered and left once per outer pass. */
    public static long triangle(int n) {
        long t = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                for (int k = j; k < i; k++) {
                    t += k;
                }
            }
        }
        return t;
    }

    /** A do-while (its test at the bottom) and a while(true) with a break. */
    public static int bottomTested(int n) {
        int i = 0;
        int c = 0;
        do {
            i++;
            c++;
        } while (i < n);
        int k = 0;
        while (true) {
            if (k >= n) {
                break;
            }
            k++;
        }
        return c * 100 + k;
    }

    public static void main(String[] args) {
        long check = 0;
        for (int n = 0; n < 30; n += 7) {
            check += sumTo(n) + swapped(n) + writtenElsewhere(n) + netSteps(n) + continues(n) + bounds(n);
            check += overLongs(n) + stepTwo(n) + countdown(n, 5) + twoInARow(n) + triangle(n % 9) + bottomTested(n);
        }
        check += inside(500, 17) + inside(0, 3) + eitherWay(9, 4, true) + eitherWay(9, 4, false);
        check += doAroundWhile(5) + doAroundWhile(0);
        int[][] grid = {{1, 2, 3, 4}, {5, -6, 7, 8}, {9, 10, 11, 12}, {-13, 14, 15, 16}};
        int[] targets = {3, 7, 11, 15, 99, 1};
        for (int t : targets) {
            check += breakNested(grid, t);
        }
        check += caughtAround(20, 7) + caughtAround(5, 9);
        check += divideAround(new int[] {5, 4, 0, 2}) + divideAround(new int[] {1, 2});
        check += caughtInside(new int[] {3, 0, 7, 0, 0, 9, 1});
        check += nearMax();
        check += decrementing(new int[] {5, 3, 9, 1, 1, 8, 2, 7, 0, 6}) + decrementing(new int[0]);
        check += leaving(new int[] {0, 1, 2, 4, 3, 0}) + leaving(new int[] {0, 0, 7, 1}) + leaving(new int[0]);
        sink = (int) check;
        System.out.println("Derived " + check);
    }
}
