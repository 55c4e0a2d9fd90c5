package dev.cim.benchmark;

import java.util.SplittableRandom;

/** Pre-generated delays from a fixed seed, so every timer and every round gets the same ones. */
final class Delays {

    static final long SEED = 0x5EED_C1A0L;

    private Delays() {
    }

    /** {@code count} delays drawn uniformly from {@code [min, max]} (inclusive), any unit. */
    static long[] uniform(int count, long min, long max, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] delays = new long[count];
        for (int i = 0; i < count; i++) {
            delays[i] = random.nextLong(min, max + 1);
        }
        return delays;
    }
}
