package deepfix;

import java.util.function.IntUnaryOperator;

/** Target viaLambda(I)I: a non-capturing lambda, linked by invokedynamic on the first call. */
public final class Lambdas {
    private Lambdas() {}

    static int viaLambda(int x) {
        IntUnaryOperator f = v -> v * 2;
        return f.applyAsInt(x) + 1;
    }

    public static void main(String[] args) {
        System.out.println(viaLambda(3) + viaLambda(4));
    }
}
