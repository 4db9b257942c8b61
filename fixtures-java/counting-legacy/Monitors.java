package countinglegacy;

/**
 * synchronized methods and blocks in old class versions (ecj inlines the monitorexit on each exit
 * and keeps a handler that exits and rethrows), a synchronized block inside try/finally (a jsr from
 * inside the monitor region), and four threads calling the same synchronized method a fixed number
 * of times (anonymous Runnable: Monitors$1).
 */
public class Monitors {
    static int shared;

    private final Object lock = new Object();
    private int value;

    public synchronized void add(int d) {
        value += d;
    }

    public static synchronized void addShared(int d) {
        shared += d;
    }

    public int blockAdd(int d) {
        synchronized (lock) {
            value += d;
            return value;
        }
    }

    public int throwInsideBlock(int d) {
        try {
            synchronized (lock) {
                if (d < 0) {
                    throw new IllegalArgumentException();
                }
                value += d;
            }
        } catch (IllegalArgumentException e) {
            value = 0;
        }
        return value;
    }

    public int blockInFinally(int d) {
        try {
            synchronized (this) {
                value ^= d;
            }
        } finally {
            value += 1;
        }
        return value;
    }

    public static void main(String[] args) throws InterruptedException {
        Monitors m = new Monitors();
        long check = 0;
        for (int d = -3; d < 10; d++) {
            m.add(d);
            check = check * 5 + m.blockAdd(d) + m.throwInsideBlock(d) + m.blockInFinally(d);
        }
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            final int step = t + 1;
            threads[t] = new Thread(new Runnable() {
                public void run() {
                    for (int i = 0; i < 50; i++) {
                        addShared(step);
                    }
                }
            });
            threads[t].start();
        }
        for (int t = 0; t < threads.length; t++) {
            threads[t].join();
        }
        System.out.println("Monitors " + check + " shared=" + shared);
    }
}
