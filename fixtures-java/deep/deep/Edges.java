package deep;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * Deep-count fixture of the edges of a window: a JDK constructor whose this(...) call throws, a target
 * constructor whose super(...) call throws, and a target first called from a class's static initializer.
 */
public final class Edges {
    private Edges() {}

    static class Base {
        Base(int x) {
            if (x < 0) throw new IllegalArgumentException("negative");
        }
    }

    /** A target constructor: its window opens once super(x) returned (the JVM allows no handler around it). */
    static final class Derived extends Base {
        final int y;

        Derived(int x) {
            super(x);
            y = x * 2;
        }
    }

    /** HashMap(int) delegates to this(int, float), which throws: the work before it still counts. */
    public static int badMaps(int n) {
        int caught = 0;
        for (int i = 0; i < n; i++) {
            try {
                new HashMap<String, String>(-1);
            } catch (IllegalArgumentException e) {
                caught++;
            }
        }
        return caught;
    }

    static final class Holder {
        static final int V = work(5);
    }

    static final class Outer {
        static final int V = outer(3);  // a target run by a static initializer: nothing of it is counted
    }

    public static int work(int n) {
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < n; i++) list.add(i);
        return list.size();
    }

    public static int outer(int n) {
        return work(n) + Holder.V;
    }

    public static void main(String[] args) {
        int out = Outer.V + outer(2) + badMaps(2);
        for (int x : new int[] {-1, -2, 3, 4}) {
            try {
                out += new Derived(x).y;
            } catch (IllegalArgumentException e) {
                out--;
            }
        }
        System.out.println(out);
    }
}
