package gw;

import com.google.common.base.Joiner;
import com.google.common.base.Splitter;
import com.google.common.collect.*;
import java.util.*;

public final class Work {
    public static int split(String text) {
        int n = 0;
        for (String part : Splitter.on(',').trimResults().omitEmptyStrings().split(text)) n += part.length();
        return n;
    }

    public static int collections(int n) {
        List<Integer> items = new ArrayList<>();
        for (int i = 0; i < n; i++) items.add(i * 7 % n);
        ImmutableList<Integer> copy = ImmutableList.copyOf(items);
        ImmutableSortedSet<Integer> sorted = ImmutableSortedSet.copyOf(items);
        Multimap<Integer, String> multi = ArrayListMultimap.create();
        for (int i = 0; i < n; i++) multi.put(i % 5, "v" + i);
        Map<String, Integer> counts = new HashMap<>();
        for (String v : multi.values()) counts.merge(v.substring(0, 1), 1, Integer::sum);
        return copy.size() + sorted.first() + multi.size() + Joiner.on('/').join(sorted).length() + counts.size();
    }

    public static void main(String[] args) {
        int out = 0;
        for (int r = 0; r < 2; r++) out += split("a, b ,c,, d, eee ,f") + collections(50);
        System.out.println(out);
    }
}
