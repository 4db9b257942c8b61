package engine;

/**
 * Branches between a {@code new} and its {@code <init>} call, so the stack map frames at their
 * targets hold {@code Uninitialized(offset)} entries (JVMS 4.7.4) naming the pc of the {@code new}.
 * Those offsets move when code is inserted before the {@code new}.
 */
public class NewBranches {
    public static final class Box {
        public final int value;

        public Box(int value) {
            this.value = value;
        }
    }

    public static final class Pair {
        public final Object left;
        public final Object right;

        public Pair(Object left, Object right) {
            this.left = left;
            this.right = right;
        }
    }

    /** Stack at the join: [Uninitialized(new Box), Uninitialized(new Box), int]. */
    public static Box ternaryArgument(boolean c, int a, int b) {
        return new Box(c ? a : b);
    }

    /** Two uninitialized objects of different offsets live at once, then a branch on the second argument. */
    public static Pair nestedNews(boolean c, int a) {
        return new Pair(new Box(c ? a : -a), c ? new Box(1) : null);
    }

    /** Short-circuit operators inside the argument: several branch targets per {@code new}. */
    public static Box shortCircuitArgument(int a, int b) {
        return new Box(a > 0 && b > 0 || a == b ? 1 : 0);
    }

    /**
     * A loop inside the argument (a switch expression block): a backward branch while
     * [Uninitialized(0), Uninitialized(0)] stays on the operand stack.
     */
    public static Box loopInArgument(int n) {
        return new Box(switch (n) {
            case 0 -> 0;
            default -> {
                int s = 0;
                for (int i = 0; i < n; i++) {
                    s += i;
                }
                yield s;
            }
        });
    }

    /** The same {@code new} pc reached on each loop iteration. */
    public static int newInLoop(int n) {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            sum += new Box(i % 2 == 0 ? i : -i).value;
        }
        return sum;
    }
}
