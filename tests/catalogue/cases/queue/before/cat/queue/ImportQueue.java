package cat.queue;

import java.util.ArrayDeque;
import java.util.Queue;

/** Runs the import tasks in arrival order; a task of more rows than a chunk imports one chunk and goes to the back. */
public final class ImportQueue {
    private ImportQueue() {
    }

    public static int chunks(int[] taskRows, int chunkRows) {
        Queue<Integer> queue = new ArrayDeque<>();
        for (int rows : taskRows) {
            queue.add(rows);
        }
        int chunks = 0;
        while (!queue.isEmpty()) {
            int rows = queue.poll();
            if (rows > chunkRows) {
                queue.add(rows - chunkRows);
            }
            chunks++;
        }
        return chunks;
    }
}
