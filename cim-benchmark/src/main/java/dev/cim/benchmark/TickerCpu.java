package dev.cim.benchmark;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Part 5: what keeping time costs with many far-future jobs pending. A fresh timer with a 1 ms tick
 * and 512 slots gets {@code pending} jobs due 1 h .. 2 h ahead (uniform, fixed seed), waits until
 * they are placed, then the CPU time of its thread over the window (3 s) is divided by the ticks in
 * it (window / tick). The executor has no tick: its figure is CPU per millisecond of the window.
 * Nothing falls due in the window, so this is pure bookkeeping: Netty walks the whole current bucket
 * every tick (about pending/512 timeouts); ours touches only the entries due in the tick, plus,
 * once every 512 ticks, a coarser ring's bucket, and far more rarely a coarser one's (an entry is
 * refiled once per ring over its life).
 */
final class TickerCpu {

    static final Duration TICK = Duration.ofMillis(1);

    private TickerCpu() {
    }

    /** Microseconds of timer-thread CPU per tick (per ms for the executor). */
    static double measure(TimerKind kind, int pending, Settings settings) throws InterruptedException {
        TimerUnderTest timer = kind.create(TICK, TimerKind.DEFAULT_SLOTS);
        try {
            SplittableRandom random = new SplittableRandom(Delays.SEED + 5);
            for (int i = 0; i < pending; i++) {
                timer.schedule(NoopJob.INSTANCE, random.nextLong(3_600_000, 7_200_001), TimeUnit.MILLISECONDS);
            }
            timer.awaitSettled();
            CpuClock.sleepNanos(TimeUnit.MILLISECONDS.toNanos(200));
            Thread thread = timer.timerThread();
            long wall0 = System.nanoTime();
            long cpu0 = CpuClock.cpuNanos(thread);
            CpuClock.sleepNanos(settings.tickerWindowNanos());
            long cpu = CpuClock.cpuNanos(thread) - cpu0;
            long wall = System.nanoTime() - wall0;
            double ticks = (double) wall / TICK.toNanos();
            double perTick = cpu / ticks / 1_000;
            Log.info("part 5 %s %,d pending: %.2f us CPU per tick (%d ms CPU over %d ms)",
                    kind.label(), pending, perTick, cpu / 1_000_000, wall / 1_000_000);
            return perTick;
        } finally {
            long closing = System.nanoTime();
            timer.close();
            Log.info("part 5 %s %,d pending: stopping the timer took %d ms", kind.label(), pending,
                    (System.nanoTime() - closing) / 1_000_000);
            System.gc();
        }
    }
}
