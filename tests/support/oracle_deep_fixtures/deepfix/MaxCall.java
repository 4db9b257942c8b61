package deepfix;

/** Target pick(II)I: one call of Math.max(int, int). */
public final class MaxCall {
    private MaxCall() {}

    static int pick(int a, int b) {
        return Math.max(a, b) * 2;
    }

    public static void main(String[] args) {
        System.out.println(pick(3, 9) + pick(9, 3));
    }
}
