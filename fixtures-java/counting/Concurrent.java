package counting;

import java.util.concurrent.CountDownLatch;

/**
 * One counted method, `work`, invoked concurrently from 8 threads released together by a latch. Each
 * thread does a fixed amount of work and nothing depends on the interleaving (no spin or retry loop,
 * the shared total is updated under a lock), so the totals are deterministic and a counter that
 * loses updates under contention shows up as a difference. Optional argument: rounds per thread
 * (default 10); the counts of `work` scale linearly with it.
 */
public class Concurrent {
    static final int THREADS = 8;
    static long total;

    static int work(int seed) {
        int h = seed;
        for (int i = 0; i < 40; i++) {
            h = h * 31 + i;
            if ((h & 1) == 0) {
                h ^= i << 3;
            }
        }
        return h;
    }

    static synchronized void record(long value) {
        total += value;
    }

    static class Worker extends Thread {
        final int id;
        final int rounds;
        final CountDownLatch start;

        Worker(int id, int rounds, CountDownLatch start) {
            this.id = id;
            this.rounds = rounds;
            this.start = start;
        }

        @Override
        public void run() {
            try {
                start.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            long sum = 0;
            for (int k = 0; k < rounds; k++) {
                sum += work(id * 1000 + k);
            }
            record(sum);
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        CountDownLatch start = new CountDownLatch(1);
        Worker[] workers = new Worker[THREADS];
        for (int i = 0; i < THREADS; i++) {
            workers[i] = new Worker(i, rounds, start);
            workers[i].start();
        }
        start.countDown();
        for (int i = 0; i < THREADS; i++) {
            workers[i].join();
        }
        System.out.println("Concurrent " + total);
    }
}
