package cx.queue;

import java.util.*;

/** Works off n import tasks in arrival order; a task over 64 units is split in two halves queued at the end. */
public final class ImportQueue {
    private ImportQueue() {
    }

    public static long process(int n) {
        List<Integer> pending = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pending.add((i * 37) % 100 + 1);
        }
        long done = 0;
        while (!pending.isEmpty()) {
            int units = pending.remove(0);
            if (units > 64) {
                pending.add(units / 2);
                pending.add(units - units / 2);
            } else {
                done += units;
            }
        }
        return done;
    }
}
