package cases;
import java.util.*;
public class Tasks {
    public static long drain(int n) {
        ArrayList<Integer> queue = new ArrayList<>();
        for (int i = 0; i < n; i++) queue.add(i);
        long sum = 0;
        while (!queue.isEmpty()) sum += queue.remove(0);
        return sum;
    }
}
