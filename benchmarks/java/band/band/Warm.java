package band;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;

/** What Work's reflection workloads reflect on, and their warm-up: on JDK 18+ a Method's, Field's or Constructor's
 * first use builds its method handles (docs/deep.md), which a test runs once before the counted call. */
public final class Warm {
    public final int value;

    public Warm(int value) {
        this.value = value;
    }

    public static int twice(int x) {
        return x + x;
    }

    public static int warmUp() throws Exception {
        Method m = Warm.class.getMethod("twice", int.class);
        Field f = Warm.class.getDeclaredField("value");
        Constructor<Warm> c = Warm.class.getConstructor(int.class);
        int sum = 0;
        for (int i = 0; i < 20; i++) sum += (Integer) m.invoke(null, i) + f.getInt(c.newInstance(i));
        return sum;
    }
}
