package cases;
import java.util.*;
public class Dedup {
    public static int unique(int n) {
        Set<Integer> seen = new HashSet<>();
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) { int x = (i * 7919) % n; if (seen.add(x)) out.add(x); }
        return out.size();
    }
}
