package bench;

/** A hand-written linear congruential generator (Knuth's MMIX constants), so the counted work is ours. */
public final class Lcg {
    private long seed;

    public Lcg(long seed) {
        this.seed = seed;
    }

    /** Uniform in [0, 1): the top 53 bits of the next state. */
    public double nextDouble() {
        seed = seed * 6364136223846793005L + 1442695040888963407L;
        return (seed >>> 11) * 0x1.0p-53;
    }
}
