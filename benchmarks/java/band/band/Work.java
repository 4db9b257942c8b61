package band;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.*;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Small workloads an application's code does with the JDK, for benchmarks/deep_band.py: each one's deep counts
 * are taken on two class libraries and compared. */
public final class Work {
    private Work() {}

    public static int hashMapFill(int n) {
        Map<String, Integer> map = new HashMap<>();
        for (int i = 0; i < n; i++) map.put("key" + i, i);
        return map.size() + map.get("key" + (n / 2));
    }

    public static int hashMapInts(int n) {
        Map<Integer, Integer> map = new HashMap<>();
        for (int i = 0; i < n; i++) map.merge(i * 31 % (n / 2 + 1), 1, Integer::sum);
        return map.size();
    }

    public static int sortInts(int n) {
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < n; i++) list.add(i * 7919 % n);
        Collections.sort(list);
        return list.get(n / 2);
    }

    public static int sortStrings(int n) {
        String[] words = new String[n];
        for (int i = 0; i < n; i++) words[i] = Integer.toHexString(i * 104729 % 65521);
        Arrays.sort(words);
        return words[0].length();
    }

    public static int concat(int n) {
        String s = "";
        for (int i = 0; i < n; i++) s += i + ",";
        return s.length();
    }

    public static int builder(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) sb.append("item").append(i).append(';').append(i * 0.5);
        return sb.toString().length();
    }

    public static long removeFirst(int n) {
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < n; i++) list.add(i);
        long sum = 0;
        while (!list.isEmpty()) sum += list.remove(0);
        return sum;
    }

    private static final Pattern PAIR = Pattern.compile("(\\w+)=(\\d+)");

    public static int regex(int n) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < n; i++) text.append("k").append(i).append('=').append(i * 3).append(' ');
        Matcher m = PAIR.matcher(text);
        int sum = 0;
        while (m.find()) sum += m.group(2).length();
        return sum;
    }

    public static int regexCompiled(int n) {
        int hits = 0;
        for (int i = 0; i < n; i++) if (("id-" + i).matches("id-\\d*7")) hits++;
        return hits;
    }

    public static int treeMap(int n) {
        TreeMap<String, Integer> tree = new TreeMap<>();
        for (int i = 0; i < n; i++) tree.put("t" + (i * 7 % n), i);
        return tree.firstKey().length() + tree.size();
    }

    public static int streams(int n) {
        List<String> words = new ArrayList<>();
        for (int i = 0; i < n; i++) words.add("w" + (i % 17));
        Map<String, Long> counts = words.stream().filter(w -> !w.endsWith("3"))
                .collect(Collectors.groupingBy(w -> w, Collectors.counting()));
        return counts.size();
    }

    public static int split(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) sb.append(i).append(',');
        return sb.toString().split(",").length;
    }

    public static int parse(int n) {
        int sum = 0;
        for (int i = 0; i < n; i++) sum += Integer.parseInt(String.valueOf(i * 13)) % 7;
        return sum;
    }

    public static int format(int n) {
        int len = 0;
        for (int i = 0; i < n; i++) len += String.format("%05d:%s", i, "x").length();
        return len;
    }

    public static int deque(int n) {
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int i = 0; i < n; i++) queue.add(i);
        int sum = 0;
        while (!queue.isEmpty()) sum += queue.poll();
        return sum;
    }

    public static int dedupe(int n) {
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < n; i++) seen.add(("v" + (i % (n / 3 + 1))).toUpperCase(Locale.ROOT));
        return seen.size();
    }

    public static int bigInteger(int n) {
        BigInteger f = BigInteger.ONE;
        for (int i = 2; i <= n; i++) f = f.multiply(BigInteger.valueOf(i));
        return f.bitLength();
    }

    private static final DateTimeFormatter ISO = DateTimeFormatter.ISO_LOCAL_DATE;

    public static int dates(int n) {
        LocalDate d = LocalDate.of(2020, 1, 1);
        int len = 0;
        for (int i = 0; i < n; i++) len += LocalDate.parse(ISO.format(d.plusDays(i)), ISO).getDayOfMonth();
        return len;
    }

    public static int reflectInvoke(int n) throws Exception {
        Method m = Warm.class.getMethod("twice", int.class);
        int sum = 0;
        for (int i = 0; i < n; i++) sum += (Integer) m.invoke(null, i);
        return sum;
    }

    public static int reflectField(int n) throws Exception {
        Field f = Warm.class.getDeclaredField("value");
        Warm w = new Warm(3);
        int sum = 0;
        for (int i = 0; i < n; i++) sum += f.getInt(w);
        return sum;
    }

    public static int reflectNew(int n) throws Exception {
        Constructor<Warm> c = Warm.class.getConstructor(int.class);
        int sum = 0;
        for (int i = 0; i < n; i++) sum += c.newInstance(i).value;
        return sum;
    }

    public static int doubles(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) sb.append(i / 7.0).append(' ').append((float) (i * 0.3));
        return sb.length();
    }

    public static double parseDoubles(int n) {
        double sum = 0;
        for (int i = 0; i < n; i++) sum += Double.parseDouble("1" + i + ".25e-3");
        return sum;
    }

    public static int formatDoubles(int n) {
        int len = 0;
        for (int i = 0; i < n; i++) len += String.format(Locale.ROOT, "%.3f|%10.2e", i / 3.0, i * 1e5).length();
        return len;
    }

    public static int bigDecimal(int n) {
        BigDecimal sum = BigDecimal.ZERO;
        for (int i = 0; i < n; i++) sum = sum.add(new BigDecimal(i + ".125").multiply(BigDecimal.valueOf(3, 1)));
        return sum.setScale(2, RoundingMode.HALF_EVEN).toPlainString().length();
    }

    public static int numbersToText(int n) {
        int len = 0;
        for (int i = 0; i < n; i++) len += Integer.toString(i * 7919).length() + Long.toHexString(i * 104729L).length();
        return len;
    }

    public static int comparators(int n) {
        List<String> words = new ArrayList<>();
        for (int i = 0; i < n; i++) words.add(Integer.toString(i * 7919 % 1000, 36));
        words.sort(Comparator.comparing(String::length).thenComparing(Comparator.reverseOrder()));
        return words.get(0).length();
    }

    public static int caseAndTrim(int n) {
        int len = 0;
        for (int i = 0; i < n; i++) len += ("  Word" + i + "  ").strip().toLowerCase(Locale.ROOT).replace('w', 'v').length();
        return len;
    }
}
