package guava;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.List;

/** What benchmarks/cli_pipeline.py counts: a string split with guava's Splitter, and ImmutableList.copyOf. */
public final class GuavaWork {
    public static void main(String[] args) {
        List<String> parts = new ArrayList<>();
        for (String part : Splitter.on(",").trimResults().split("a, b ,c,, d")) {
            parts.add(part);
        }
        int sizes = 0;
        for (int n : new int[] {0, 1, 10, 100}) {
            List<Integer> items = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                items.add(i);
            }
            sizes += ImmutableList.copyOf(items).size();
        }
        System.out.println(parts.size() + " parts, " + sizes + " elements copied");
    }
}
