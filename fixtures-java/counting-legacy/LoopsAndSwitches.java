package countinglegacy;

/**
 * Loops and switches as ecj compiles them for old class versions: a while loop starts with a goto to
 * its condition, a do-while at pc 0 branches back to 0, tableswitch and lookupswitch, and string
 * concatenation through StringBuffer.
 */
public class LoopsAndSwitches {
    static int steps;

    /** The first instruction is a goto to the condition (ecj's while shape). */
    public static int collatz(int n) {
        while (n != 1) {
            n = (n & 1) == 0 ? n >> 1 : 3 * n + 1;
            steps++;
        }
        return steps;
    }

    /** A do-while body at pc 0. */
    public static int digitSum(int n, int[] acc) {
        do {
            acc[0] += n % 10;
            n /= 10;
        } while (n != 0);
        return acc[0];
    }

    public static int nested(int n) {
        int count = 0;
        outer:
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (j > i) {
                    continue outer;
                }
                if (i * j > 20) {
                    break outer;
                }
                count += i ^ j;
            }
        }
        return count;
    }

    public static int dense(int k) {
        switch (k) {
            case 0:
                return 10;
            case 1:
                return 11;
            case 2:
            case 3:
                return 23;
            case 5:
                return 15;
            default:
                return -1;
        }
    }

    public static int sparse(int k) {
        int r = 0;
        switch (k) {
            case -1000:
                r = 1;
                break;
            case 7:
                r = 2;
            case 100000:
                r += 3;
                break;
            default:
                r = -1;
        }
        return r;
    }

    public static String describe(int k) {
        return "k=" + k + (k > 0 ? "+" : "-") + dense(k);
    }

    public static void main(String[] args) {
        long check = 0;
        for (int n = 1; n <= 20; n++) {
            check += collatz(n);
        }
        int[] acc = new int[1];
        for (int n = 0; n < 1000; n += 77) {
            check += digitSum(n, acc);
        }
        for (int n = 0; n < 9; n++) {
            check = check * 3 + nested(n);
        }
        for (int k = -2; k < 8; k++) {
            check = check * 3 + dense(k) + describe(k).length();
        }
        int[] keys = {-1000, 7, 100000, 8, 0};
        for (int i = 0; i < keys.length; i++) {
            check = check * 3 + sparse(keys[i]);
        }
        System.out.println("LoopsAndSwitches " + check);
    }
}
