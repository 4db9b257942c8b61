package inclusive;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/** Application code the JDK calls back (a Comparator, equals, lambdas) next to the same code called directly. */
public final class Callbacks {
    static final class ByLength implements Comparator<String> {
        @Override
        public int compare(String a, String b) {
            return weight(a) - weight(b);
        }
    }

    static final class Key {
        final int id;

        Key(int id) {
            this.id = id;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key && same(((Key) o).id);
        }

        boolean same(int other) {
            return other == id;
        }

        @Override
        public int hashCode() {
            return id;
        }
    }

    static int weight(String s) {
        return s.length() * 2;
    }

    static int sortAndMeasure(List<String> words) {
        ByLength order = new ByLength();
        Collections.sort(words, order);        // compare() called back by the JDK: excluded
        int direct = order.compare(words.get(0), words.get(1));   // called directly: included
        return direct + weight(words.get(0));
    }

    static int lookup(List<Key> keys, int id) {
        Key k = new Key(id);
        int hit = keys.contains(k) ? 1 : 0;    // equals() called back by ArrayList: excluded
        return hit + (k.equals(keys.get(0)) ? 2 : 0);   // called directly: included
    }

    static int viaLambda(List<String> words) {
        int[] sum = new int[1];
        words.forEach(w -> sum[0] += weight(w));   // the lambda body and weight() through it: excluded
        Comparator<String> c = Comparator.comparingInt(Callbacks::weight);
        return sum[0] + c.compare("ab", "abc") + weight("z");
    }

    public static void main(String[] args) {
        List<String> words = new ArrayList<>();
        String[] base = {"pear", "fig", "banana", "kiwi", "apple", "plum"};
        for (String w : base) {
            words.add(w);
        }
        List<Key> keys = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            keys.add(new Key(i * 3));
        }
        int r = sortAndMeasure(words) + lookup(keys, 6) + lookup(keys, 7) + viaLambda(words);
        System.out.println("callbacks " + r + " " + words);
    }
}
