package cases;
import java.util.*;
public class Tasks {
    public static long drain(int n) {
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int i = 0; i < n; i++) queue.add(i);
        long sum = 0;
        while (!queue.isEmpty()) sum += queue.poll();
        return sum;
    }
}
