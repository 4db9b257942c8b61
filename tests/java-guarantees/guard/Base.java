package guard;

public abstract class Base {
    public abstract int size();

    public int twice() {
        return 2 * size();
    }
}
