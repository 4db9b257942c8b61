package cx.sortcall;

import java.util.Arrays;

/** The median of n scores. */
public final class Leaderboard {
    private Leaderboard() {
    }

    public static int median(int n) {
        int[] scores = new int[n];
        for (int i = 0; i < n; i++) {
            scores[i] = (int) ((i * 7919L) % 100003);
        }
        Arrays.sort(scores);
        return scores[n / 2];
    }
}
