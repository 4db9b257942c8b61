package engine;

/**
 * tableswitch and lookupswitch at every alignment. Their operands start at the next multiple of 4
 * (JVMS 6.5 tableswitch: 0-3 padding bytes), so any code inserted before a switch can change its
 * padding and therefore its length.
 *
 * <p>The statements before each switch only move it: the switch opcode lands at pc 1, 4, 3 and 6,
 * i.e. padding 2, 3, 0 and 1 (the {@code PadN} suffix).
 */
public class Switches {
    public enum Color { RED, GREEN, BLUE, BLACK }

    // switch at pc 1: iload_0; tableswitch
    public static int tableSwitchPad2(int k) {
        switch (k) {
            case 1: return 10;
            case 2: return 20;
            case 3: return 30;
            default: return -1;
        }
    }

    // switch at pc 4: iinc (3 bytes); iload_0; tableswitch
    public static int tableSwitchPad3(int k) {
        k++;
        switch (k) {
            case 1: return 10;
            case 2: return 20;
            case 3: return 30;
            default: return -1;
        }
    }

    // switch at pc 3: iload_0; istore_1; iload_1; tableswitch
    public static int tableSwitchPad0(int k) {
        int j = k;
        switch (j) {
            case 1: return 10;
            case 2: return 20;
            case 3: return 30;
            default: return -1;
        }
    }

    // switch at pc 6: iinc; iload_0; istore_1; iload_1; tableswitch
    public static int tableSwitchPad1(int k) {
        k++;
        int j = k;
        switch (j) {
            case 1: return 10;
            case 2: return 20;
            case 3: return 30;
            default: return -1;
        }
    }

    public static int lookupSwitchPad2(int k) {
        switch (k) {
            case -100: return 1;
            case 0: return 2;
            case 100000: return 3;
            default: return -1;
        }
    }

    public static int lookupSwitchPad3(int k) {
        k++;
        switch (k) {
            case -100: return 1;
            case 0: return 2;
            case 100000: return 3;
            default: return -1;
        }
    }

    public static int lookupSwitchPad0(int k) {
        int j = k;
        switch (j) {
            case -100: return 1;
            case 0: return 2;
            case 100000: return 3;
            default: return -1;
        }
    }

    public static int lookupSwitchPad1(int k) {
        k++;
        int j = k;
        switch (j) {
            case -100: return 1;
            case 0: return 2;
            case 100000: return 3;
            default: return -1;
        }
    }

    /** Keys at both ends of the int range: lookupswitch pairs are sorted as signed ints. */
    public static int lookupSwitchExtremeKeys(int k) {
        switch (k) {
            case Integer.MIN_VALUE: return 1;
            case -1: return 2;
            case 0: return 3;
            case Integer.MAX_VALUE: return 4;
            default: return 0;
        }
    }

    /** Only a default: javac emits a lookupswitch with zero pairs. */
    public static int lookupSwitchNoPairs(int k) {
        switch (k) {
            default:
                k += 5;
        }
        return k;
    }

    /** Several keys sharing targets, fall-through, and a tableswitch over negative keys. */
    public static int tableSwitchFallThrough(int k) {
        int r = 0;
        switch (k) {
            case -2:
            case -1:
                r += 1;
            case 0:
                r += 10;
                break;
            case 1:
                r += 100;
            default:
                r += 1000;
        }
        return r;
    }

    /** lookupswitch on hashCode(), then a tableswitch on the matched index. */
    public static int stringSwitch(String s) {
        switch (s) {
            case "alpha": return 1;
            case "beta": return 2;
            case "Aa": return 3; // "Aa" and "BB" share a hash code
            case "BB": return 4;
            default: return 0;
        }
    }

    /** Through the synthetic {@code Switches$1.$SwitchMap$engine$Switches$Color} array. */
    public static int enumSwitch(Color c) {
        switch (c) {
            case RED: return 1;
            case GREEN: return 2;
            case BLUE: return 3;
            default: return 0;
        }
    }

    /** Switch expression with arrow cases and a block that yields. */
    public static int switchExpression(int k) {
        return switch (k) {
            case 1, 2, 3 -> k * 2;
            case 10 -> {
                int s = 0;
                for (int i = 0; i < k; i++) {
                    s += i;
                }
                yield s;
            }
            default -> -k;
        };
    }

    /** A switch nested in a case of another switch. */
    public static int nestedSwitch(int a, int b) {
        switch (a) {
            case 0:
                switch (b) {
                    case 0: return 0;
                    case 1: return 1;
                    default: return 2;
                }
            case 1:
                return 10;
            default:
                return 20;
        }
    }
}
