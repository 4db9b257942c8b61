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
        for (int i = 1; i < n; i++) {
            int score = scores[i];
            int j = i - 1;
            while (j >= 0 && scores[j] > score) {
                scores[j + 1] = scores[j];
                j--;
            }
            scores[j + 1] = score;
        }
        return scores[n / 2];
    }
}
