package dev.cim.benchmark;

/**
 * Sizes and repetitions of a WheelComparison run. {@code --quick} shrinks every job count 10x for a
 * smoke test; its numbers are not comparable with a full run.
 *
 * @param quick whether sizes are shrunk
 * @param rounds rounds per cost/memory measurement, each on a fresh timer
 * @param warmup leading rounds dropped from the summary
 */
record Settings(boolean quick, int rounds, int warmup) {

    Settings {
        if (rounds <= warmup) {
            throw new IllegalArgumentException("rounds (expected: more than the " + warmup + " warm-up rounds): " + rounds);
        }
    }

    private int scale(int full) {
        return quick ? full / 10 : full;
    }

    /** Jobs in the schedule, cancel and memory measurements (parts 1-3): 1,000,000. */
    int costJobs() {
        return scale(1_000_000);
    }

    /** Jobs in the lateness measurement (part 4): 10,000. */
    int latenessJobs() {
        return scale(10_000);
    }

    /** Rounds of the lateness measurement: one warm-up, two pooled. */
    int latenessRounds() {
        return 3;
    }

    /** Far-future jobs pending in the second idle-CPU measurement (part 5): 5,000,000. */
    int idlePending() {
        return scale(5_000_000);
    }

    /** How long part 5 watches an idle timer: 10 s (2 s quick). */
    long idleWindowNanos() {
        return quick ? 2_000_000_000L : 10_000_000_000L;
    }
}
