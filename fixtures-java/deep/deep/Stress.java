package deep;

import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Deep-count fixture: each target exercises one of the rules of deep counts (docs/deep.md), and main calls
 * them in a fixed order, warming up first what the JDK builds lazily outside any class initializer (the
 * first String.format, reflection's accessor), so that the counts of the calls that follow depend on nothing
 * but the call itself. Compiled with javac 17 and javac 8.
 */
public final class Stress {
    private Stress() {}

    /** Collections: growth (Arrays.copyOf, System.arraycopy), hashing, a tree map, a deque, a linked list. */
    public static long collections(int n) {
        List<Integer> list = new ArrayList<>();
        Map<Integer, String> map = new HashMap<>();
        TreeMap<String, Integer> tree = new TreeMap<>();
        ArrayDeque<Integer> deque = new ArrayDeque<>();
        LinkedList<Integer> linked = new LinkedList<>();
        for (int i = 0; i < n; i++) {
            list.add(i);
            map.put(i, "v" + i);
            tree.put("k" + (i * 7 % n), i);
            deque.add(i);
            linked.add(i);
        }
        long sum = 0;
        while (!list.isEmpty()) sum += list.remove(0);
        while (!deque.isEmpty()) sum += deque.poll();
        for (int i = 0; i < linked.size(); i++) sum += linked.get(i);
        for (Map.Entry<String, Integer> e : tree.entrySet()) sum += e.getKey().length() + e.getValue();
        return sum + map.get(n / 2).length();
    }

    /** Strings: a builder, indy concatenation, split, replace, case, compare. */
    public static int strings(int n) {
        StringBuilder sb = new StringBuilder();
        String s = "";
        for (int i = 0; i < n; i++) {
            sb.append(i).append(',');
            s = s + i + ";";
        }
        String[] parts = sb.toString().split(",");
        int c = parts.length + s.replace(";", "--").length();
        c += s.toUpperCase(Locale.ROOT).compareTo(s) + s.indexOf("9;") + (s.contains("17") ? 1 : 0);
        return c + String.join("/", parts).hashCode() % 7;
    }

    private static final Pattern WORD = Pattern.compile("([a-z]+)-(\\d+)");

    /** Regex: a compiled pattern matched, a pattern compiled in the window. */
    public static int regex(int n) {
        int found = 0;
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < n; i++) text.append("ab-").append(i).append(' ');
        Matcher m = WORD.matcher(text);
        while (m.find()) found += m.group(2).length();
        return found + (Pattern.compile("x+y").matcher("xxxy").matches() ? 1 : 0);
    }

    /** Streams with lambdas: hidden classes left out, the JDK's stream pipeline and the lambdas' bodies counted. */
    public static int streams(int n) {
        List<String> words = IntStream.range(0, n).mapToObj(i -> "w" + (i % 10)).collect(Collectors.toList());
        Map<String, Long> counts = words.stream().collect(Collectors.groupingBy(w -> w, TreeMap::new, Collectors.counting()));
        return counts.size() + words.stream().filter(w -> w.endsWith("3")).mapToInt(String::length).sum();
    }

    /** String.format, after main warmed it up. */
    public static int format(int n) {
        return String.format(Locale.ROOT, "%d-%s-%08.3f", n, "x", n / 7.0).length();
    }

    /** Reflection, after main warmed it up past the accessor's generation. */
    public static int reflection(int n) throws Exception {
        Method m = Stress.class.getMethod("twice", int.class);
        int sum = 0;
        for (int i = 0; i < n; i++) sum += (Integer) m.invoke(null, i);
        return sum;
    }

    public static int twice(int x) {
        return x + x;
    }

    /** A class first initialized inside the window: its static initializer, and what it calls, are left out. */
    public static int lazyClass(int n) {
        return Lazy.TABLE.length + Lazy.size(n);
    }

    static final class Lazy {
        static final int[] TABLE = build();

        static int[] build() {
            int[] t = new int[64];
            for (int i = 0; i < t.length; i++) t[i] = Integer.bitCount(i) + String.valueOf(i).length();
            return t;
        }

        static int size(int n) {
            return TABLE[n % TABLE.length];
        }
    }

    /** Recursion: a nested activation of the target counts once, in the outermost one. */
    public static int recursion(int n) {
        return n <= 1 ? Math.max(n, 0) : recursion(n - 1) + recursion(n - 2);
    }

    /** Exceptions thrown and caught inside the JDK's code and the target's own. */
    public static int exceptions(int n) {
        int bad = 0;
        for (int i = 0; i < n; i++) {
            try {
                bad += Integer.parseInt(i % 3 == 0 ? "x" + i : String.valueOf(i));
            } catch (NumberFormatException e) {
                bad--;
            }
        }
        return bad;
    }

    /** A target that throws: its window is abrupt. */
    public static int fails(int n) {
        List<Integer> list = new ArrayList<>(Arrays.asList(1, 2, 3));
        return list.get(n);
    }

    static final class Point {
        final int x, y;

        Point(int x, int y) {
            this.x = x;
            this.y = y;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Point && ((Point) o).x == x && ((Point) o).y == y;
        }

        @Override
        public int hashCode() {
            return 31 * x + y;
        }
    }

    /** Callbacks: the JDK calling back into application code (compare, hashCode, equals). */
    public static int callbacks(int n) {
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < n; i++) points.add(new Point((i * 37) % 11, i % 5));
        points.sort(new Comparator<Point>() {
            @Override
            public int compare(Point a, Point b) {
                return a.x != b.x ? Integer.compare(a.x, b.x) : Integer.compare(a.y, b.y);
            }
        });
        Set<Point> set = new HashSet<>(points);
        return set.size() + points.get(0).x + (set.contains(new Point(3, 2)) ? 1 : 0);
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        // warm-up, as pytest-bytecount does when it sets deep counts up: locale providers, the format parser
        String.format(Locale.ROOT, "%d-%s-%08.3f", 1, "w", 0.5);
        String.format("%d-%s-%08.3f", 1, "w", 0.5);
        reflection(20);  // warm-up: reflection's accessor (JDK 17 generates it at the 16th call)
        long out = 0;
        for (int round = 0; round < 2; round++) {
            out += collections(n) + strings(n) + regex(n) + streams(n) + format(n) + reflection(3) + lazyClass(n)
                    + recursion(12) + exceptions(n) + callbacks(n);
            try {
                out += fails(5);
            } catch (IndexOutOfBoundsException e) {
                out++;
            }
        }
        System.out.println(out);
    }
}
