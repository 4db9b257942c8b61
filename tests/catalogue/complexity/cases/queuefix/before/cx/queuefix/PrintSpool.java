package cx.queuefix;

import java.util.*;

/** Prints n jobs first come, first served, and returns the pages printed. */
public final class PrintSpool {
    private PrintSpool() {
    }

    public static long pages(int n) {
        List<Integer> spool = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            spool.add(i % 9 + 1);
        }
        long printed = 0;
        while (!spool.isEmpty()) {
            printed += spool.remove(0);
        }
        return printed;
    }
}
