package cx.queuefix;

import java.util.*;

/** Prints n jobs first come, first served, and returns the pages printed. */
public final class PrintSpool {
    private PrintSpool() {
    }

    public static long pages(int n) {
        Deque<Integer> spool = new ArrayDeque<>();
        for (int i = 0; i < n; i++) {
            spool.add(i % 9 + 1);
        }
        long printed = 0;
        while (!spool.isEmpty()) {
            printed += spool.poll();
        }
        return printed;
    }
}
