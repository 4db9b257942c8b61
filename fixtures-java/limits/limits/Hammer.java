package limits;

import java.util.concurrent.CountDownLatch;

/**
 * {@code THREADS} threads, released together, each call {@code step} {@code calls} times: nothing may be
 * lost. {@code step} has a branch and a loop, so its counts depend on the argument, which is the same
 * sequence in every thread.
 */
public final class Hammer {
    static int step(int x) {
        int r = x;
        if ((x & 1) == 0) {
            r = r / 2 + 1;
        } else {
            for (int k = 0; k < (x & 7); k++) {
                r = r * 3 + k;
            }
        }
        return r;
    }

    static long run(int threads, int calls) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        long[] sums = new long[threads];
        Thread[] all = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final int me = t;
            all[t] = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                long s = 0;
                for (int i = 0; i < calls; i++) {
                    s += step(i);
                }
                sums[me] = s;
            });
            all[t].start();
        }
        start.countDown();
        long total = 0;
        for (int t = 0; t < threads; t++) {
            all[t].join();
            total += sums[t];
        }
        return total;
    }

    public static void main(String[] args) throws InterruptedException {
        System.out.println(run(Integer.parseInt(args[0]), Integer.parseInt(args[1])));
    }
}
