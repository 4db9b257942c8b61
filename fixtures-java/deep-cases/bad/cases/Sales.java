package cases;
import java.util.*;
public class Sales {
    public static long total(int n) {
        List<Integer> days = new LinkedList<>();
        for (int i = 0; i < n; i++) days.add(i % 13);
        long sum = 0;
        for (int i = 0; i < days.size(); i++) sum += days.get(i);
        return sum;
    }
}
