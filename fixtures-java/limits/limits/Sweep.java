package limits;

/**
 * One invocation of {@code sweep(from)} runs its int loop {@code Integer.MAX_VALUE - from} times: from
 * {@code Integer.MIN_VALUE + 1}, 2**32 - 2 passes, near the most a loop stepping an int by 1 under {@code <}
 * can make. Its blocks count themselves from the loop's own locals (the latch from {@code i}, one arm from
 * {@code odd}, which wraps past Integer.MAX_VALUE, the other from {@code down}, stepping by -1). Every two
 * extra passes run the same instructions, so the counts are linear in the number of pass pairs.
 */
public final class Sweep {
    public static int sweep(int from) {
        int odd = Integer.MAX_VALUE - 1;
        int down = 0;
        for (int i = from; i < Integer.MAX_VALUE; i++) {
            if ((i & 1) != 0) {
                odd++;
            } else {
                down--;
            }
        }
        return odd + down;
    }

    public static void main(String[] args) {
        System.out.println(sweep(Integer.parseInt(args[0])));
    }
}
