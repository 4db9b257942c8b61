package cases;
import java.util.*;
public class Dedup {
    public static int unique(int n) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) { int x = (i * 7919) % n; if (!out.contains(x)) out.add(x); }
        return out.size();
    }
}
