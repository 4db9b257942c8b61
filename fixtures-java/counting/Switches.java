package counting;

/**
 * tableswitch, lookupswitch, fall-through, a string switch (hashCode lookupswitch, then equals, then a
 * tableswitch; "Aa" and "BB" share a hash code) and an enum switch (javac reads the synthetic
 * Switches$1.$SwitchMap$counting$Switches$Color array, filled by that class's static initializer).
 */
public class Switches {
    enum Color { RED, GREEN, BLUE, ALPHA }

    /** Dense keys 0..5: tableswitch. */
    public static int dense(int k) {
        switch (k) {
            case 0:
                return 10;
            case 1:
                return 11;
            case 2:
            case 3:
                return 23;
            case 5:
                return 15;
            default:
                return -1;
        }
    }

    /** Sparse keys: lookupswitch. */
    public static int sparse(int k) {
        switch (k) {
            case -1000:
                return 1;
            case 7:
                return 2;
            case 100000:
                return 3;
            case Integer.MAX_VALUE:
                return 4;
            default:
                return 0;
        }
    }

    public static int fallThrough(int k) {
        int r = 0;
        switch (k) {
            case 1:
                r += 1;
            case 2:
                r += 2;
            case 3:
                r += 3;
                break;
            case 4:
                r = 40;
                break;
            default:
                r = -1;
        }
        return r;
    }

    public static int strings(String s) {
        switch (s) {
            case "alpha":
                return 1;
            case "beta":
                return 2;
            case "Aa":
                return 3;
            case "BB":
                return 4;
            default:
                return 0;
        }
    }

    public static int colors(Color c) {
        switch (c) {
            case RED:
                return 1;
            case GREEN:
                return 2;
            case BLUE:
                return 4;
            default:
                return 8;
        }
    }

    public static int chars(char c) {
        switch (c) {
            case 'a':
            case 'e':
            case 'i':
            case 'o':
            case 'u':
                return 1;
            case ' ':
                return 0;
            default:
                return 2;
        }
    }

    /** A lookupswitch inside a tableswitch case. */
    public static int nestedSwitch(int a, int b) {
        switch (a) {
            case 0:
                return b;
            case 1:
                switch (b) {
                    case 10:
                        return 110;
                    case 2000:
                        return 2001;
                    default:
                        return 100;
                }
            case 2:
                return -b;
            default:
                return 0;
        }
    }

    public static void main(String[] args) {
        long check = 0;
        for (int k = -2; k < 9; k++) {
            check = check * 3 + dense(k) + fallThrough(k) + nestedSwitch(k % 4, k * 1000 - 4000);
        }
        int[] keys = {-1000, 7, 100000, Integer.MAX_VALUE, 8, 0, -1000, 10, 2000};
        for (int i = 0; i < keys.length; i++) {
            check = check * 3 + sparse(keys[i]) + nestedSwitch(1, keys[i] % 3000);
        }
        String[] words = {"alpha", "beta", "Aa", "BB", "gamma", "", "alphA", "beta"};
        for (int i = 0; i < words.length; i++) {
            check = check * 3 + strings(words[i]);
        }
        Color[] colors = Color.values();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < colors.length; i++) {
                check += colors(colors[(i + round) % colors.length]);
            }
        }
        String text = "counting bytecodes is deterministic";
        for (int i = 0; i < text.length(); i++) {
            check += chars(text.charAt(i));
        }
        System.out.println("Switches " + check);
    }
}
