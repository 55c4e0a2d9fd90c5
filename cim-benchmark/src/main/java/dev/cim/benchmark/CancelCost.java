package dev.cim.benchmark;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Part 2: cancelling the {@code n} jobs of part 1 (scheduled from one thread, then placed), from one
 * thread, in the order they were scheduled, on a fresh timer each round. The shortest delays are 1 s,
 * so a few hundred of 1 M jobs have run by the time they are cancelled; their {@code cancel} calls
 * return false and still count as calls.
 *
 * <ul>
 *   <li><b>caller</b>: CPU time of the cancelling loop per job.</li>
 *   <li><b>full</b>: caller CPU plus the CPU of the timer's thread from the first cancel until every
 *       cancellation was processed ({@link TimerUnderTest#awaitSettled()}: our ticker and Netty's
 *       worker unlink cancelled entries once a tick), minus that thread's CPU over an equally long
 *       window just before, with the same jobs pending (Netty's worker walks a bucket of pending
 *       timeouts every tick; that is not cancellation work). The window also spans the memory
 *       watch below, during whose full collections the timer thread is stopped.</li>
 *   <li><b>memory released</b>: wall time from the end of the cancelling loop until a sample of
 *       1,000 handles, to which the harness then holds only weak references, has been collected;
 *       see {@link MemoryRelease} for why this is an upper bound. First, the share of that sample
 *       collectable by a full collection started exactly one tick (100 ms) after the loop ended,
 *       with no collection before it.</li>
 * </ul>
 */
final class CancelCost {

    /**
     * Per-round results; {@code unreleased} counts rounds whose sample was not collected in time, and
     * {@code longestGcMillis} is the longest full collection of the watch, its resolution.
     */
    record Result(RoundStats callerNsPerJob, RoundStats fullNsPerJob, RoundStats releaseMillis, int unreleased,
            double longestGcMillis, RoundStats goneAtOneTickPercent) {
    }

    private static final long RELEASE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(20);

    /**
     * This part's tick, 100 ms rather than the usual 1 ms: the memory probe comes one tick after the
     * last cancel, and a full collection of the heap alone takes longer than 1 ms.
     */
    static final Duration TICK = Duration.ofMillis(100);

    private CancelCost() {
    }

    static Result measure(TimerKind kind, long[] delaysMillis, Settings settings) throws InterruptedException {
        int n = delaysMillis.length;
        RoundStats caller = new RoundStats(settings.warmup());
        RoundStats full = new RoundStats(settings.warmup());
        RoundStats release = new RoundStats(settings.warmup());
        RoundStats atOneTick = new RoundStats(settings.warmup());
        int unreleased = 0;
        long gcResolution = 0;
        long idleWindow = 1_000_000_000L;
        for (int round = 0; round < settings.rounds(); round++) {
            try (TimerUnderTest timer = kind.create(TICK, TimerKind.DEFAULT_SLOTS)) {
                Object[] handles = new Object[n];
                for (int i = 0; i < n; i++) {
                    handles[i] = timer.schedule(NoopJob.INSTANCE, delaysMillis[i], TimeUnit.MILLISECONDS);
                }
                timer.awaitSettled();
                System.gc();
                MemoryRelease watch = MemoryRelease.watch(handles, 1_000);
                TimerCpuWindow window = new TimerCpuWindow(timer.timerThread(),
                        CpuClock.idleRate(timer.timerThread(), idleWindow));

                window.open();
                long cpu0 = CpuClock.currentThreadCpuNanos();
                int cancelled = 0;
                for (int i = 0; i < n; i++) {
                    if (timer.cancel(handles[i])) {
                        cancelled++;
                    }
                }
                long callerCpu = CpuClock.currentThreadCpuNanos() - cpu0;
                long cancelEnd = System.nanoTime();
                handles = null; // from here on the harness holds no handle
                long releasedAfter = watch.awaitReleased(cancelEnd, cancelEnd + TICK.toNanos(),
                        RELEASE_TIMEOUT_NANOS);
                timer.awaitSettled();
                long timerCpu = window.closeNet();
                idleWindow = window.wallNanos();

                caller.add((double) callerCpu / n);
                full.add((double) (callerCpu + timerCpu) / n);
                atOneTick.add(100 * watch.goneAtProbe());
                gcResolution = Math.max(gcResolution, watch.longestGcNanos());
                if (releasedAfter < 0) {
                    if (round >= settings.warmup()) {
                        unreleased++;
                    }
                } else {
                    release.add(releasedAfter / 1e6);
                }
                Log.info("part 2 %s round %d: caller %.1f ns/job, timer thread %.1f ns/job, %d already run,"
                        + " longest GC %d ms, %.1f%% gone 1 tick after (probe %.1f ms late), all released after %s",
                        kind.label(), round, (double) callerCpu / n, (double) timerCpu / n, n - cancelled,
                        watch.longestGcNanos() / 1_000_000, 100 * watch.goneAtProbe(), watch.probeLateNanos() / 1e6,
                        releasedAfter < 0 ? "(not within 20 s)" : String.format("%.1f ms", releasedAfter / 1e6));
            }
        }
        return new Result(caller, full, release, unreleased, gcResolution / 1e6, atOneTick);
    }
}
