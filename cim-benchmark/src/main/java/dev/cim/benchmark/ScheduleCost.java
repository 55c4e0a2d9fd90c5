package dev.cim.benchmark;

import java.util.concurrent.TimeUnit;

/**
 * Part 1: the cost of scheduling {@code n} jobs with delays spread uniformly over 1..3600 s, from 1
 * or 2 threads, on a fresh timer (1 ms tick, 512 slots; Kafka 20) each round.
 *
 * <ul>
 *   <li><b>caller</b>: the CPU time of the scheduling threads in their loops, divided by {@code n}.
 *       It includes allocation, but not GC threads.</li>
 *   <li><b>full</b>: caller CPU plus the CPU the timer's own thread spent from the moment the callers
 *       were released until every job was placed in the timer's structure
 *       ({@link TimerUnderTest#awaitSettled()}), minus that thread's idle CPU over a window as long
 *       (idle rate measured on the same fresh timer just before), divided by {@code n}. This counts
 *       the work a timer defers: our ticker draining its inbox into the wheel, Netty's worker moving
 *       at most 100,000 timeouts a tick from its queue to its buckets. The executor does its heap
 *       insert in the caller, so for it full is close to caller, and measured the same way.</li>
 * </ul>
 * Every job is the one shared {@link NoopJob}, so job objects cost nothing here. GC threads are in
 * neither figure; the JVM's collection time over the same window is reported beside them
 * ({@link GcClock}), scaled to 1 M jobs.
 */
final class ScheduleCost {

    /** Per-round caller and full ns per job, and GC time over the window in ms per 1 M jobs. */
    record Result(RoundStats callerNsPerJob, RoundStats fullNsPerJob, RoundStats gcMillisPerMillion) {
    }

    private ScheduleCost() {
    }

    /** Delays in milliseconds, uniform over 1..3600 s, from the fixed seed. */
    static long[] delaysMillis(int n) {
        return Delays.uniform(n, 1_000, 3_600_000, Delays.SEED);
    }

    static Result measure(TimerKind kind, int threads, long[] delaysMillis, Settings settings)
            throws InterruptedException {
        int n = delaysMillis.length;
        RoundStats caller = new RoundStats(settings.warmup());
        RoundStats full = new RoundStats(settings.warmup());
        RoundStats gc = new RoundStats(settings.warmup());
        long idleWindow = 1_000_000_000L; // then as long as the previous round's window
        for (int round = 0; round < settings.rounds(); round++) {
            System.gc();
            try (TimerUnderTest timer = kind.create()) {
                TimerCpuWindow window = new TimerCpuWindow(timer.timerThread(),
                        CpuClock.idleRate(timer.timerThread(), idleWindow));
                long gc0 = GcClock.collectionMillis();
                long callerCpu = Callers.run(threads, n, (from, to) -> {
                    for (int i = from; i < to; i++) {
                        timer.schedule(NoopJob.INSTANCE, delaysMillis[i], TimeUnit.MILLISECONDS);
                    }
                }, window::open);
                timer.awaitSettled();
                long timerCpu = window.closeNet();
                long gcMillis = GcClock.collectionMillis() - gc0;
                idleWindow = window.wallNanos();
                caller.add((double) callerCpu / n);
                full.add((double) (callerCpu + timerCpu) / n);
                gc.add(gcMillis * 1e6 / n);
                Log.info("part 1 %s %d thread(s) round %d: caller %.1f ns/job, timer thread %.1f ns/job,"
                        + " window %d ms, GC %d ms", kind.label(), threads, round, (double) callerCpu / n,
                        (double) timerCpu / n, window.wallNanos() / 1_000_000, gcMillis);
            }
        }
        return new Result(caller, full, gc);
    }
}
