package cat.memo;

/** Counts the routes a picker can take through the aisles of a warehouse grid, moving down or right only. */
public final class Routes {
    private final int rows;
    private final int cols;
    private final long[][] memo;

    public Routes(int rows, int cols) {
        this.rows = rows;
        this.cols = cols;
        this.memo = new long[rows][cols];
    }

    /** Routes from the dock in one corner to the far corner. */
    public long count() {
        return walk(rows - 1, cols - 1);
    }

    private long walk(int row, int col) {
        if (row == 0 || col == 0) {
            return 1;
        }
        if (memo[row][col] == 0) {
            memo[row][col] = walk(row - 1, col) + walk(row, col - 1);
        }
        return memo[row][col];
    }
}
