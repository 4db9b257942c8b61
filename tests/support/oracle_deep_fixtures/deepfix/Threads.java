package deepfix;

/** Target work(I)I on two threads at once: each thread has its own window. */
public final class Threads {
    private Threads() {}

    static int work(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i;
        }
        return s;
    }

    static final class Worker extends Thread {
        int result;

        @Override
        public void run() {
            result = work(5);
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Worker worker = new Worker();
        worker.start();
        int mine = work(6);
        worker.join();
        System.out.println(mine + worker.result);
    }
}
