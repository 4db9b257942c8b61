package limits;

/**
 * One invocation of {@code spin(n)} runs its loop n times: with n past 2**32 every loop instruction
 * executes more often in that single invocation than an int can count. Each extra iteration runs the
 * same instructions, so the counts are linear in n.
 */
public final class Spin {
    public static long spin(long n) {
        long s = 0;
        for (long i = 0; i < n; i++) {
            s += i ^ (s >>> 7);
        }
        return s;
    }

    public static void main(String[] args) {
        System.out.println(spin(Long.parseLong(args[0])));
    }
}
