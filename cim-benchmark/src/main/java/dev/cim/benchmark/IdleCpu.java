package dev.cim.benchmark;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Part 5: the CPU a timer burns while nothing falls due, as a percentage of one core. A fresh timer
 * (1 ms tick, 512 slots; Kafka 20) gets {@code pending} jobs due 1 h .. 2 h ahead (uniform, fixed
 * seed; none for the "nothing due" row), waits until they are placed (which also starts every thread
 * of the timer: the markers run on them), collects the garbage, lets the machine calm for
 * {@link #CALM_NANOS}, then watches a window ({@link Settings#idleWindowNanos()}).
 *
 * <p>Two figures per window: the CPU time of all the timer's threads ({@link TimerUnderTest#allThreads()})
 * over the window's wall time, which is what the timer itself costs; and the CPU time of the whole
 * process ({@link ProcessCpu}), which also counts what the JVM does meanwhile (JIT compiler, GC and service threads, the
 * harness thread asleep): the figure an operator's {@code top} shows, but with a baseline common to
 * all timers. Netty's worker walks its current bucket every tick (about {@code pending / 512}
 * timeouts); Kafka's reaper polls its queue of buckets at least every 200 ms; the executor's thread
 * and ours sleep until their first job.
 */
final class IdleCpu {

    /** Percent of one core over the window: the timer's own threads, and the whole process. */
    record Result(double timerPercent, double processPercent) {
    }

    static final long CALM_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private IdleCpu() {
    }

    static Result measure(TimerKind kind, int pending, Settings settings) throws InterruptedException {
        TimerUnderTest timer = kind.create(TimerKind.DEFAULT_TICK, TimerKind.DEFAULT_SLOTS);
        try {
            SplittableRandom random = new SplittableRandom(Delays.SEED + 5);
            for (int i = 0; i < pending; i++) {
                timer.schedule(NoopJob.INSTANCE, random.nextLong(3_600_000, 7_200_001), TimeUnit.MILLISECONDS);
            }
            long placing = System.nanoTime();
            timer.awaitSettled();
            long placedAfter = System.nanoTime() - placing;
            System.gc();
            CpuClock.sleepNanos(CALM_NANOS);

            List<Thread> threads = timer.allThreads();
            long wall0 = System.nanoTime();
            long threads0 = cpuOf(threads);
            ProcessCpu.Reading process0 = ProcessCpu.read();
            CpuClock.sleepNanos(settings.idleWindowNanos());
            ProcessCpu.Reading process1 = ProcessCpu.read();
            long threads1 = cpuOf(threads);
            long wall = System.nanoTime() - wall0;

            Result result = new Result(100.0 * (threads1 - threads0) / wall,
                    100.0 * ProcessCpu.between(process0, process1) / wall);
            Log.info("part 5 %s %,d pending (placed in %d ms): timer threads %s %.3f%%, process %.3f%% of a core"
                    + " over %d ms", kind.label(), pending, placedAfter / 1_000_000,
                    threads.stream().map(Thread::getName).toList(), result.timerPercent(), result.processPercent(),
                    wall / 1_000_000);
            return result;
        } finally {
            long closing = System.nanoTime();
            timer.close();
            Log.info("part 5 %s %,d pending: stopping the timer took %d ms", kind.label(), pending,
                    (System.nanoTime() - closing) / 1_000_000);
            System.gc();
        }
    }

    private static long cpuOf(List<Thread> threads) {
        long total = 0;
        for (Thread thread : threads) {
            total += CpuClock.cpuNanos(thread);
        }
        return total;
    }
}
