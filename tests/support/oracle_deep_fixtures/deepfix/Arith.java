package deepfix;

/** Target mix(I)I: arithmetic only, no calls. */
public final class Arith {
    private Arith() {}

    static int mix(int x) {
        int y = x * 3 + 7;
        return y ^ (x << 2);
    }

    public static void main(String[] args) {
        int s = 0;
        for (int i = 0; i < 4; i++) {
            s += mix(i);
        }
        System.out.println(s);
    }
}
