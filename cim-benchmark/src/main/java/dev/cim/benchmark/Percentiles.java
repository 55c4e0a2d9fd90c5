package dev.cim.benchmark;

import java.util.Arrays;

/** Nearest-rank percentiles of a set of samples. */
final class Percentiles {

    private final long[] sorted;

    Percentiles(long[] samples) {
        if (samples.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        this.sorted = samples.clone();
        Arrays.sort(sorted);
    }

    /** The smallest sample with at least {@code p} percent of the samples at or below it. */
    long percentile(double p) {
        if (p <= 0 || p > 100) {
            throw new IllegalArgumentException("percentile (expected: 0 < p <= 100): " + p);
        }
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }

    long max() {
        return sorted[sorted.length - 1];
    }

    /** How many samples are below zero. */
    long countNegative() {
        long count = 0;
        for (long sample : sorted) {
            if (sample >= 0) {
                break;
            }
            count++;
        }
        return count;
    }

    int size() {
        return sorted.length;
    }
}
