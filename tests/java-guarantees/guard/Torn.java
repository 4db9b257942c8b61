package guard;

/** The tests cut this class file in half. */
public class Torn {
    public static int one() {
        return 1;
    }
}
