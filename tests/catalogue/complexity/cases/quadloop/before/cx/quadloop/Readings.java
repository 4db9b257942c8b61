package cx.quadloop;

/** How many of n sensor readings lie above the average of the readings before them. */
public final class Readings {
    private Readings() {
    }

    public static int aboveAverage(int n) {
        int[] readings = new int[n];
        for (int i = 0; i < n; i++) {
            readings[i] = (int) ((i * 7919L) % 1000);
        }
        int above = 0;
        long sum = 0;
        for (int i = 1; i < n; i++) {
            sum += readings[i - 1];
            if (readings[i] * (long) i > sum) {
                above++;
            }
        }
        return above;
    }
}
