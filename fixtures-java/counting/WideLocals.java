package counting;

/**
 * More than 255 local slots: 128 doubles (slots 1..256) push every later local past the one-byte
 * index, so javac emits wide loads, stores and iinc (javap prints them as iload_w, iinc_w, ...).
 * By the counting contract a wide-prefixed instruction counts once, under the mnemonic it modifies.
 * The doubles are declared but mostly never assigned: javac still gives each its slots.
 */
public class WideLocals {
    public static long manyLocals(int n) {
        double d000, d001, d002, d003, d004, d005, d006, d007, d008, d009, d010, d011, d012, d013, d014, d015;
        double d016, d017, d018, d019, d020, d021, d022, d023, d024, d025, d026, d027, d028, d029, d030, d031;
        double d032, d033, d034, d035, d036, d037, d038, d039, d040, d041, d042, d043, d044, d045, d046, d047;
        double d048, d049, d050, d051, d052, d053, d054, d055, d056, d057, d058, d059, d060, d061, d062, d063;
        double d064, d065, d066, d067, d068, d069, d070, d071, d072, d073, d074, d075, d076, d077, d078, d079;
        double d080, d081, d082, d083, d084, d085, d086, d087, d088, d089, d090, d091, d092, d093, d094, d095;
        double d096, d097, d098, d099, d100, d101, d102, d103, d104, d105, d106, d107, d108, d109, d110, d111;
        double d112, d113, d114, d115, d116, d117, d118, d119, d120, d121, d122, d123, d124, d125, d126, d127;
        d000 = n;
        d127 = d000 / 2; // slot 255: still a one-byte index
        n += 1000; // wide iinc on slot 0: the constant needs 16 bits
        int w = n; // istore_w
        long acc = 0; // lstore_w
        float f = 1.5f; // fstore_w
        double x = d127; // dstore_w
        String tag = "none"; // astore_w
        for (int i = 0; i < n - 1000; i++) { // iload_w, iinc_w
            acc += (long) w * i; // lload_w, lstore_w
            w += 300; // iinc_w with a 16-bit constant
            f *= 2; // fload_w, fstore_w
            x = x / 2 + i; // dload_w
            if ((i & 1) == 0) {
                tag = "even";
            } else {
                tag = "odd";
            }
        }
        return acc + (long) x + (long) f + tag.length(); // aload_w
    }

    /** An instance method with a wide local inside a try/catch, so the handler's frame is wide too. */
    public int wideInTry(int k) {
        double d000, d001, d002, d003, d004, d005, d006, d007, d008, d009, d010, d011, d012, d013, d014, d015;
        double d016, d017, d018, d019, d020, d021, d022, d023, d024, d025, d026, d027, d028, d029, d030, d031;
        double d032, d033, d034, d035, d036, d037, d038, d039, d040, d041, d042, d043, d044, d045, d046, d047;
        double d048, d049, d050, d051, d052, d053, d054, d055, d056, d057, d058, d059, d060, d061, d062, d063;
        double d064, d065, d066, d067, d068, d069, d070, d071, d072, d073, d074, d075, d076, d077, d078, d079;
        double d080, d081, d082, d083, d084, d085, d086, d087, d088, d089, d090, d091, d092, d093, d094, d095;
        double d096, d097, d098, d099, d100, d101, d102, d103, d104, d105, d106, d107, d108, d109, d110, d111;
        double d112, d113, d114, d115, d116, d117, d118, d119, d120, d121, d122, d123, d124, d125, d126, d127;
        d001 = k;
        int r = 0;
        try {
            r = 1000 / k;
        } catch (ArithmeticException e) { // astore_w
            r = -1;
        }
        r += (int) d001;
        return r;
    }

    public static void main(String[] args) {
        long check = 0;
        for (int n = 0; n < 40; n += 3) {
            check = check * 7 + manyLocals(n);
        }
        WideLocals w = new WideLocals();
        for (int k = -2; k <= 2; k++) {
            check = check * 7 + w.wideInTry(k);
        }
        System.out.println("WideLocals " + check);
    }
}
