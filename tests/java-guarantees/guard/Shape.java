package guard;

/** Only abstract methods: nothing to count. */
public interface Shape {
    double area();
}
