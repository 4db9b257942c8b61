package inclusive;

/** A target run by several threads at once, and a target that starts threads running application code. */
public final class Threads {
    static int work(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += step(i);
        }
        return s;
    }

    static int step(int i) {
        return i % 3 == 0 ? i : 1;
    }

    static int spawn() throws InterruptedException {
        int[] box = new int[1];
        Thread t = new Thread(() -> box[0] = work(5));   // run() on another thread: excluded from spawn
        t.start();
        t.join();
        return box[0] + step(3);
    }

    public static void main(String[] args) throws InterruptedException {
        Thread[] threads = new Thread[6];
        int[] results = new int[threads.length];
        for (int k = 0; k < threads.length; k++) {
            final int id = k;
            threads[k] = new Thread(() -> results[id] = work(200 + id));
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        int s = spawn();
        for (int r : results) {
            s += r;
        }
        System.out.println("threads " + s);
    }
}
