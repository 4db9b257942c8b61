package counting;

/**
 * synchronized methods (no monitor instructions; the JVM locks) and synchronized blocks
 * (monitorenter, monitorexit on every exit, and a handler that exits the monitor and rethrows).
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

    public int nestedBlocks(int d) {
        synchronized (this) {
            synchronized (lock) {
                value -= d;
            }
        }
        return value;
    }

    /** The exception leaves the block through javac's handler (monitorexit; athrow) and is caught below. */
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

    /** Escapes a synchronized method: the JVM releases the monitor. */
    public synchronized int failingSync(int d) {
        if (d < 0) {
            throw new IllegalStateException();
        }
        return d + value;
    }

    public int callFailingSync(int d) {
        try {
            return failingSync(d);
        } catch (IllegalStateException e) {
            return -1;
        }
    }

    public static int syncOnClass(int d) {
        synchronized (Monitors.class) {
            shared -= d;
        }
        return shared;
    }

    public static void main(String[] args) {
        Monitors m = new Monitors();
        long check = 0;
        for (int d = -3; d < 12; d++) {
            m.add(d);
            addShared(d);
            check = check * 5 + m.blockAdd(d) + m.nestedBlocks(d % 3) + m.throwInsideBlock(d)
                    + m.callFailingSync(d - 2) + syncOnClass(d & 3);
        }
        System.out.println("Monitors " + check + " shared=" + shared);
    }
}
