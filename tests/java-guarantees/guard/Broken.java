package guard;

/** The tests patch answer()'s "sipush 12345; ireturn" into "aconst_null; nop; nop; ireturn", which the
 *  verifier rejects (a reference returned as an int). */
public class Broken {
    public static int answer() {
        return 12345;
    }
}
