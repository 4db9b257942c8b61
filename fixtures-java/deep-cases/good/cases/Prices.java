package cases;
import java.util.*;
public class Prices {
    public static long total(int n) {
        Map<String, Integer> price = new HashMap<>();
        for (int i = 0; i < n; i++) price.put("isbn-" + (100000 + i), i % 97);
        long sum = 0;
        for (int i = 0; i < n; i++) sum += price.get("isbn-" + (100000 + (i * 31) % n));
        return sum;
    }
}
