package inclusive;

/** Two targets, one calling the other; a target re-entered through a JDK callback while active. */
public final class Layers {
    static int inner(int x) {
        return helper(x) * 2;
    }

    static int helper(int x) {
        return x + 3;
    }

    static int outer(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += inner(i);
        }
        return s + helper(n);
    }

    static int nested(int depth) {
        if (depth == 0) {
            return inner(1);
        }
        java.util.List<Integer> xs = new java.util.ArrayList<>();
        xs.add(depth);
        xs.add(depth + 1);
        // the comparator calls nested() again: a target re-entered through the JDK while active below
        xs.sort((a, b) -> nested(depth - 1) + a - b > 0 ? 1 : -1);
        return xs.get(0) + inner(depth);
    }

    public static void main(String[] args) {
        int s = outer(5) + inner(7) + nested(12);   // 13 segments deep: past the initial stacks of 8
        System.out.println("layers " + s);
    }
}
