package dev.cim.benchmark;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Part 4: how late jobs run. {@code n} jobs with delays uniform over 0..2 s (nanosecond resolution,
 * fixed seed) are scheduled back to back on a fresh timer with the given tick and 512 slots; each
 * stamps {@link System#nanoTime()} when it runs. Lateness = run time − (schedule time + delay), where
 * the schedule time is read just before {@code schedule} is called: the timer reads its clock during
 * the call, so a run counted early here ran before any due time the timer could have computed (runs
 * early by less than one call's length would go unseen; the log shows how many runs fall in that
 * ambiguous band). Three rounds; the first is warm-up, the other two are pooled.
 */
final class Lateness {

    /** The pooled lateness samples (nanoseconds) and how many jobs did not run in time at all. */
    record Result(Percentiles lateness, int missing) {
    }

    private static final long SPAN_NANOS = TimeUnit.SECONDS.toNanos(2);

    private Lateness() {
    }

    static Result measure(TimerKind kind, Duration tick, Settings settings) throws InterruptedException {
        int n = settings.latenessJobs();
        long[] delays = Delays.uniform(n, 0, SPAN_NANOS - 1, Delays.SEED + 4);
        long[] pooled = new long[0];
        int missing = 0;
        for (int round = 0; round < settings.latenessRounds(); round++) {
            long[] scheduledAt = new long[n];
            long[] returnedAt = new long[n];
            long[] ranAt = new long[n];
            CountDownLatch done = new CountDownLatch(n);
            try (TimerUnderTest timer = kind.create(tick, TimerKind.DEFAULT_SLOTS)) {
                timer.awaitSettled();
                for (int i = 0; i < n; i++) {
                    StampingJob job = new StampingJob(i, ranAt, done);
                    scheduledAt[i] = System.nanoTime();
                    timer.schedule(job, delays[i], TimeUnit.NANOSECONDS);
                    returnedAt[i] = System.nanoTime();
                }
                boolean all = done.await(SPAN_NANOS + TimeUnit.SECONDS.toNanos(10), TimeUnit.NANOSECONDS);
                long[] lateness = new long[n];
                int ran = 0;
                int ambiguous = 0; // after the call began + delay, but before it returned + delay
                for (int i = 0; i < n; i++) {
                    if (ranAt[i] != 0) {
                        lateness[ran++] = ranAt[i] - (scheduledAt[i] + delays[i]);
                        if (lateness[ran - 1] >= 0 && ranAt[i] < returnedAt[i] + delays[i]) {
                            ambiguous++;
                        }
                    }
                }
                lateness = Arrays.copyOf(lateness, ran);
                Percentiles round0 = new Percentiles(lateness);
                Log.info("part 4 %s tick %s round %d: p50 %.3f p99 %.3f max %.3f ms, early %d, ambiguous %d, missing %d",
                        kind.label(), tick, round, round0.percentile(50) / 1e6, round0.percentile(99) / 1e6,
                        round0.max() / 1e6, round0.countNegative(), ambiguous, all ? 0 : n - ran);
                if (round >= 1) {
                    int at = pooled.length;
                    pooled = Arrays.copyOf(pooled, at + ran);
                    System.arraycopy(lateness, 0, pooled, at, ran);
                    missing += n - ran;
                }
            }
        }
        return new Result(new Percentiles(pooled), missing);
    }
}
