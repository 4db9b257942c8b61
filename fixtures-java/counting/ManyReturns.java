package counting;

import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;

/**
 * Methods with many returns and many counters: the report before each return would repeat dozens of
 * times, so the instrumenter sends every return to one shared exit. Covers int, long, double, reference
 * (an interface type, null included) and void results, a constructor with early returns, early returns
 * from inside a loop, and exceptions thrown and caught between returns.
 */
public class ManyReturns {
    /** A switch of 48 cases, each returning its own arithmetic. */
    public static int classify(int k, int a) {
        switch (k) {
            case 0:
                return a + 1;
            case 1:
                return a * 2;
            case 2:
                return a - 3;
            case 3:
                return a ^ 4;
            case 4:
                return a | 5;
            case 5:
                return a & 6;
            case 6:
                return a << (7 & 7);
            case 7:
                return a >> (8 & 7);
            case 8:
                return a >>> (9 & 7);
            case 9:
                return a % 10;
            case 10:
                return a / 11;
            case 11:
                return -a + 12;
            case 12:
                return Math.max(a, 13);
            case 13:
                return Math.min(a, 14);
            case 14:
                return Integer.bitCount(a + 15);
            case 15:
                return Math.abs(a - 16);
            case 16:
                return a + 17;
            case 17:
                return a * 18;
            case 18:
                return a - 19;
            case 19:
                return a ^ 20;
            case 20:
                return a | 21;
            case 21:
                return a & 22;
            case 22:
                return a << (23 & 7);
            case 23:
                return a >> (24 & 7);
            case 24:
                return a >>> (25 & 7);
            case 25:
                return a % 26;
            case 26:
                return a / 27;
            case 27:
                return -a + 28;
            case 28:
                return Math.max(a, 29);
            case 29:
                return Math.min(a, 30);
            case 30:
                return Integer.bitCount(a + 31);
            case 31:
                return Math.abs(a - 32);
            case 32:
                return a + 33;
            case 33:
                return a * 34;
            case 34:
                return a - 35;
            case 35:
                return a ^ 36;
            case 36:
                return a | 37;
            case 37:
                return a & 38;
            case 38:
                return a << (39 & 7);
            case 39:
                return a >> (40 & 7);
            case 40:
                return a >>> (41 & 7);
            case 41:
                return a % 42;
            case 42:
                return a / 43;
            case 43:
                return -a + 44;
            case 44:
                return Math.max(a, 45);
            case 45:
                return Math.min(a, 46);
            case 46:
                return Integer.bitCount(a + 47);
            case 47:
                return Math.abs(a - 48);
            default:
                return -1;
        }
    }

    /** Early returns from inside a loop: a long result. */
    public static long scan(int[] data, int stop) {
        long sum = 0;
        for (int i = 0; i < data.length; i++) {
            int v = data[i];
            switch (v & 31) {
                case 0:
                    if (v == stop + 0) return sum * 1L + i;
                    sum += v + 1;
                    break;
                case 1:
                    if (v == stop + 1) return sum * 2L + i;
                    sum += v * 2;
                    break;
                case 2:
                    if (v == stop + 2) return sum * 3L + i;
                    sum += v - 3;
                    break;
                case 3:
                    if (v == stop + 3) return sum * 4L + i;
                    sum += v ^ 4;
                    break;
                case 4:
                    if (v == stop + 4) return sum * 5L + i;
                    sum += v | 5;
                    break;
                case 5:
                    if (v == stop + 5) return sum * 6L + i;
                    sum += v & 6;
                    break;
                case 6:
                    if (v == stop + 6) return sum * 7L + i;
                    sum += v << (7 & 7);
                    break;
                case 7:
                    if (v == stop + 7) return sum * 8L + i;
                    sum += v >> (8 & 7);
                    break;
                case 8:
                    if (v == stop + 8) return sum * 9L + i;
                    sum += v >>> (9 & 7);
                    break;
                case 9:
                    if (v == stop + 9) return sum * 10L + i;
                    sum += v % 10;
                    break;
                case 10:
                    if (v == stop + 10) return sum * 11L + i;
                    sum += v / 11;
                    break;
                case 11:
                    if (v == stop + 11) return sum * 12L + i;
                    sum += -v + 12;
                    break;
                case 12:
                    if (v == stop + 12) return sum * 13L + i;
                    sum += Math.max(v, 13);
                    break;
                case 13:
                    if (v == stop + 13) return sum * 14L + i;
                    sum += Math.min(v, 14);
                    break;
                case 14:
                    if (v == stop + 14) return sum * 15L + i;
                    sum += Integer.bitCount(v + 15);
                    break;
                case 15:
                    if (v == stop + 15) return sum * 16L + i;
                    sum += Math.abs(v - 16);
                    break;
                case 16:
                    if (v == stop + 16) return sum * 17L + i;
                    sum += v + 17;
                    break;
                case 17:
                    if (v == stop + 17) return sum * 18L + i;
                    sum += v * 18;
                    break;
                case 18:
                    if (v == stop + 18) return sum * 19L + i;
                    sum += v - 19;
                    break;
                case 19:
                    if (v == stop + 19) return sum * 20L + i;
                    sum += v ^ 20;
                    break;
                case 20:
                    if (v == stop + 20) return sum * 21L + i;
                    sum += v | 21;
                    break;
                case 21:
                    if (v == stop + 21) return sum * 22L + i;
                    sum += v & 22;
                    break;
                case 22:
                    if (v == stop + 22) return sum * 23L + i;
                    sum += v << (23 & 7);
                    break;
                case 23:
                    if (v == stop + 23) return sum * 24L + i;
                    sum += v >> (24 & 7);
                    break;
                case 24:
                    if (v == stop + 24) return sum * 25L + i;
                    sum += v >>> (25 & 7);
                    break;
                case 25:
                    if (v == stop + 25) return sum * 26L + i;
                    sum += v % 26;
                    break;
                case 26:
                    if (v == stop + 26) return sum * 27L + i;
                    sum += v / 27;
                    break;
                case 27:
                    if (v == stop + 27) return sum * 28L + i;
                    sum += -v + 28;
                    break;
                case 28:
                    if (v == stop + 28) return sum * 29L + i;
                    sum += Math.max(v, 29);
                    break;
                case 29:
                    if (v == stop + 29) return sum * 30L + i;
                    sum += Math.min(v, 30);
                    break;
                case 30:
                    if (v == stop + 30) return sum * 31L + i;
                    sum += Integer.bitCount(v + 31);
                    break;
                case 31:
                    if (v == stop + 31) return sum * 32L + i;
                    sum += Math.abs(v - 32);
                    break;
            }
        }
        return sum;
    }

    /** A double result. */
    public static double ratio(int k, double x) {
        switch (k % 40) {
            case 0:
                return x * 1.5;
            case 1:
                return x / 2.25;
            case 2:
                return Math.sqrt(Math.abs(x) + 3);
            case 3:
                return x - 4.75;
            case 4:
                return (double) ((long) x % 5);
            case 5:
                return Math.floor(x + 6);
            case 6:
                return x * 7.5;
            case 7:
                return x / 8.25;
            case 8:
                return Math.sqrt(Math.abs(x) + 9);
            case 9:
                return x - 10.75;
            case 10:
                return (double) ((long) x % 11);
            case 11:
                return Math.floor(x + 12);
            case 12:
                return x * 13.5;
            case 13:
                return x / 14.25;
            case 14:
                return Math.sqrt(Math.abs(x) + 15);
            case 15:
                return x - 16.75;
            case 16:
                return (double) ((long) x % 17);
            case 17:
                return Math.floor(x + 18);
            case 18:
                return x * 19.5;
            case 19:
                return x / 20.25;
            case 20:
                return Math.sqrt(Math.abs(x) + 21);
            case 21:
                return x - 22.75;
            case 22:
                return (double) ((long) x % 23);
            case 23:
                return Math.floor(x + 24);
            case 24:
                return x * 25.5;
            case 25:
                return x / 26.25;
            case 26:
                return Math.sqrt(Math.abs(x) + 27);
            case 27:
                return x - 28.75;
            case 28:
                return (double) ((long) x % 29);
            case 29:
                return Math.floor(x + 30);
            case 30:
                return x * 31.5;
            case 31:
                return x / 32.25;
            case 32:
                return Math.sqrt(Math.abs(x) + 33);
            case 33:
                return x - 34.75;
            case 34:
                return (double) ((long) x % 35);
            case 35:
                return Math.floor(x + 36);
            case 36:
                return x * 37.5;
            case 37:
                return x / 38.25;
            case 38:
                return Math.sqrt(Math.abs(x) + 39);
            case 39:
                return x - 40.75;
            default:
                return Double.NaN;
        }
    }

    /** A reference result of an interface type: ArrayList, LinkedList or null. */
    public List<Integer> pick(int k) {
        switch (k % 40) {
            case 0: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 0; i++) l.add(i * 1);
                return l;
            }
            case 1: {
                List<Integer> l = new LinkedList<>();
                for (int i = 0; i < 1; i++) l.add(i * 2);
                return l;
            }
            case 2: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 2; i++) l.add(i * 3);
                return l;
            }
            case 3: {
                List<Integer> l = new LinkedList<>();
                for (int i = 0; i < 3; i++) l.add(i * 4);
                return l;
            }
            case 4:
                return null;
            case 5: {
                List<Integer> l = new LinkedList<>();
                for (int i = 0; i < 5; i++) l.add(i * 6);
                return l;
            }
            case 6: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 6; i++) l.add(i * 7);
                return l;
            }
            case 7: {
                List<Integer> l = new LinkedList<>();
                for (int i = 0; i < 0; i++) l.add(i * 8);
                return l;
            }
            case 8: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 1; i++) l.add(i * 9);
                return l;
            }
            case 9:
                return null;
            case 10: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 3; i++) l.add(i * 11);
                return l;
            }
            case 11: {
                List<Integer> l = new LinkedList<>();
                for (int i = 0; i < 4; i++) l.add(i * 12);
                return l;
            }
            case 12: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 5; i++) l.add(i * 13);
                return l;
            }
            case 13: {
                List<Integer> l = new LinkedList<>();
                for (int i = 0; i < 6; i++) l.add(i * 14);
                return l;
            }
            case 14:
                return null;
            case 15: {
                List<Integer> l = new LinkedList<>();
                for (int i = 0; i < 1; i++) l.add(i * 16);
                return l;
            }
            case 16: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 2; i++) l.add(i * 17);
                return l;
            }
            case 17: {
                List<Integer> l = new LinkedList<>();
                for (int i = 0; i < 3; i++) l.add(i * 18);
                return l;
            }
            case 18: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 4; i++) l.add(i * 19);
                return l;
            }
            case 19:
                return null;
            case 20: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 6; i++) l.add(i * 21);
                return l;
            }
            case 21: {
                List<Integer> l = new LinkedList<>();
                for (int i = 0; i < 0; i++) l.add(i * 22);
                return l;
            }
            case 22: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 1; i++) l.add(i * 23);
                return l;
            }
            case 23: {
                List<Integer> l = new LinkedList<>();
                for (int i = 0; i < 2; i++) l.add(i * 24);
                return l;
            }
            case 24:
                return null;
            case 25: {
                List<Integer> l = new LinkedList<>();
                for (int i = 0; i < 4; i++) l.add(i * 26);
                return l;
            }
            case 26: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 5; i++) l.add(i * 27);
                return l;
            }
            case 27: {
                List<Integer> l = new LinkedList<>();
                for (int i = 0; i < 6; i++) l.add(i * 28);
                return l;
            }
            case 28: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 0; i++) l.add(i * 29);
                return l;
            }
            case 29:
                return null;
            case 30: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 2; i++) l.add(i * 31);
                return l;
            }
            case 31: {
                List<Integer> l = new LinkedList<>();
                for (int i = 0; i < 3; i++) l.add(i * 32);
                return l;
            }
            case 32: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 4; i++) l.add(i * 33);
                return l;
            }
            case 33: {
                List<Integer> l = new LinkedList<>();
                for (int i = 0; i < 5; i++) l.add(i * 34);
                return l;
            }
            case 34:
                return null;
            case 35: {
                List<Integer> l = new LinkedList<>();
                for (int i = 0; i < 0; i++) l.add(i * 36);
                return l;
            }
            case 36: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 1; i++) l.add(i * 37);
                return l;
            }
            case 37: {
                List<Integer> l = new LinkedList<>();
                for (int i = 0; i < 2; i++) l.add(i * 38);
                return l;
            }
            case 38: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 3; i++) l.add(i * 39);
                return l;
            }
            case 39:
                return null;
            default:
                return new ArrayList<>();
        }
    }

    /** void, with a return in every case; one case throws and another catches. */
    public static void visit(int k, int[] out) {
        switch (k % 40) {
            case 0:
                out[0 % out.length] += k + 1;
                return;
            case 1:
                out[1 % out.length] += k * 2;
                return;
            case 2:
                out[2 % out.length] += k - 3;
                return;
            case 3:
                out[3 % out.length] += k ^ 4;
                return;
            case 4:
                out[4 % out.length] += k | 5;
                return;
            case 5:
                out[5 % out.length] += k & 6;
                return;
            case 6:
                out[6 % out.length] += k << (7 & 7);
                return;
            case 7:
                out[7 % out.length] += k >> (8 & 7);
                return;
            case 8:
                out[8 % out.length] += k >>> (9 & 7);
                return;
            case 9:
                out[9 % out.length] += k % 10;
                return;
            case 10:
                out[10 % out.length] += k / 11;
                return;
            case 11:
                out[11 % out.length] += -k + 12;
                return;
            case 12:
                out[12 % out.length] += Math.max(k, 13);
                return;
            case 13:
                out[13 % out.length] += 1 / (k - k);
                return;
            case 14:
                out[14 % out.length] += Integer.bitCount(k + 15);
                return;
            case 15:
                out[15 % out.length] += Math.abs(k - 16);
                return;
            case 16:
                out[16 % out.length] += k + 17;
                return;
            case 17:
                try {
                    out[k] = 1;
                } catch (ArrayIndexOutOfBoundsException e) {
                    out[0] -= 1;
                    return;
                }
                out[1] += 2;
                return;
            case 18:
                out[18 % out.length] += k - 19;
                return;
            case 19:
                out[19 % out.length] += k ^ 20;
                return;
            case 20:
                out[20 % out.length] += k | 21;
                return;
            case 21:
                out[21 % out.length] += k & 22;
                return;
            case 22:
                out[22 % out.length] += k << (23 & 7);
                return;
            case 23:
                out[23 % out.length] += k >> (24 & 7);
                return;
            case 24:
                out[24 % out.length] += k >>> (25 & 7);
                return;
            case 25:
                out[25 % out.length] += k % 26;
                return;
            case 26:
                out[26 % out.length] += k / 27;
                return;
            case 27:
                out[27 % out.length] += -k + 28;
                return;
            case 28:
                out[28 % out.length] += Math.max(k, 29);
                return;
            case 29:
                out[29 % out.length] += Math.min(k, 30);
                return;
            case 30:
                out[30 % out.length] += Integer.bitCount(k + 31);
                return;
            case 31:
                out[31 % out.length] += Math.abs(k - 32);
                return;
            case 32:
                out[32 % out.length] += k + 33;
                return;
            case 33:
                out[33 % out.length] += k * 34;
                return;
            case 34:
                out[34 % out.length] += k - 35;
                return;
            case 35:
                out[35 % out.length] += k ^ 36;
                return;
            case 36:
                out[36 % out.length] += k | 37;
                return;
            case 37:
                out[37 % out.length] += k & 38;
                return;
            case 38:
                out[38 % out.length] += k << (39 & 7);
                return;
            case 39:
                out[39 % out.length] += k >> (40 & 7);
                return;
            default:
                out[0]++;
        }
    }

    final int value;
    final String label;

    /** A constructor with early returns after super(). */
    ManyReturns(int k) {
        super();
        label = "k" + (k % 3);
        switch (k % 36) {
            case 0:
                value = k + 1;
                return;
            case 1:
                value = k * 2;
                return;
            case 2:
                value = k - 3;
                return;
            case 3:
                value = k ^ 4;
                return;
            case 4:
                value = k | 5;
                return;
            case 5:
                value = k & 6;
                return;
            case 6:
                value = k << (7 & 7);
                return;
            case 7:
                value = k >> (8 & 7);
                return;
            case 8:
                value = k >>> (9 & 7);
                return;
            case 9:
                value = k % 10;
                return;
            case 10:
                value = k / 11;
                return;
            case 11:
                value = -k + 12;
                return;
            case 12:
                value = Math.max(k, 13);
                return;
            case 13:
                value = Math.min(k, 14);
                return;
            case 14:
                value = Integer.bitCount(k + 15);
                return;
            case 15:
                value = Math.abs(k - 16);
                return;
            case 16:
                value = k + 17;
                return;
            case 17:
                value = k * 18;
                return;
            case 18:
                value = k - 19;
                return;
            case 19:
                value = k ^ 20;
                return;
            case 20:
                value = k | 21;
                return;
            case 21:
                value = k & 22;
                return;
            case 22:
                value = k << (23 & 7);
                return;
            case 23:
                value = k >> (24 & 7);
                return;
            case 24:
                value = k >>> (25 & 7);
                return;
            case 25:
                value = k % 26;
                return;
            case 26:
                value = k / 27;
                return;
            case 27:
                value = -k + 28;
                return;
            case 28:
                value = Math.max(k, 29);
                return;
            case 29:
                value = Math.min(k, 30);
                return;
            case 30:
                value = Integer.bitCount(k + 31);
                return;
            case 31:
                value = Math.abs(k - 32);
                return;
            case 32:
                value = k + 33;
                return;
            case 33:
                value = k * 34;
                return;
            case 34:
                value = k - 35;
                return;
            case 35:
                value = k ^ 36;
                return;
            default:
                value = 0;
        }
    }

    public static void main(String[] args) {
        long acc = 0;
        for (int k = -2; k < 52; k++) {
            acc += classify(k, k * 7 + 3);
        }
        int[] data = new int[200];
        for (int i = 0; i < data.length; i++) {
            data[i] = (i * 37 + 11) % 101;
        }
        for (int stop = -40; stop < 100; stop += 3) {
            acc += scan(data, stop);
        }
        double d = 0;
        for (int k = 0; k < 45; k++) {
            d += ratio(k, k * 1.5 - 20);
        }
        ManyReturns m = new ManyReturns(5);
        int sizes = 0;
        for (int k = 0; k < 45; k++) {
            List<Integer> l = m.pick(k);
            sizes += l == null ? -1 : l.size();
        }
        int[] out = new int[7];
        int failed = 0;
        for (int k = 0; k < 45; k++) {
            try {
                visit(k, out);
            } catch (ArithmeticException e) {
                failed++;
            }
        }
        for (int k = 0; k < 40; k++) {
            acc += new ManyReturns(k * 5 + 1).value;
        }
        System.out.println("ManyReturns " + acc + " " + (long) d + " " + sizes + " " + failed + " " + java.util.Arrays.toString(out));
    }
}
