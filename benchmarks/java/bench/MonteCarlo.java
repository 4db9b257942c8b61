package bench;

import java.util.function.LongSupplier;

/** Monte Carlo estimate of pi: two Lcg.nextDouble() calls per sample (SciMark's MonteCarlo shape). */
public final class MonteCarlo implements LongSupplier {
    static final int SAMPLES = 1_000_000;

    public static double integrate(int samples) {
        Lcg random = new Lcg(113);
        int under = 0;
        for (int i = 0; i < samples; i++) {
            double x = random.nextDouble();
            double y = random.nextDouble();
            if (x * x + y * y <= 1.0) {
                under++;
            }
        }
        return (double) under / samples * 4.0;
    }

    @Override
    public long getAsLong() {
        return Double.doubleToLongBits(integrate(SAMPLES));
    }
}
