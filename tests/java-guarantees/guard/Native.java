package guard;

public class Native {
    public native int raw();

    public int cooked() {
        return 1;
    }
}
