package cat.memo;

/** Counts the routes a picker can take through the aisles of a warehouse grid, moving down or right only. */
public final class Routes {
    private final int rows;
    private final int cols;

    public Routes(int rows, int cols) {
        this.rows = rows;
        this.cols = cols;
    }

    /** Routes from the dock in one corner to the far corner. */
    public long count() {
        return walk(rows - 1, cols - 1);
    }

    private long walk(int row, int col) {
        if (row == 0 || col == 0) {
            return 1;
        }
        return walk(row - 1, col) + walk(row, col - 1);
    }
}
