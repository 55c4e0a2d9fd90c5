package dev.cim.benchmark;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Caller-side cost of one {@code schedule} call (average time per call per thread), 1 and 2 threads,
 * for the three timers. Delays are uniform over 1..3600 s from a fixed seed, so nothing falls due.
 *
 * <p>Only the calling thread is timed: work the timer defers to its own thread is not in this score
 * (WheelComparison part 1 adds it), though that thread competes for the same cores. Every call
 * leaves a pending job behind, so each iteration gets a fresh timer, stopped at its end; jobs pile
 * up within an iteration (millions per second), which the score includes as GC pressure.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
@State(Scope.Benchmark)
public class ScheduleBenchmark {

    /** Delays per calling thread, cycled. */
    private static final int DELAYS = 1 << 20;

    @Param({"OURS", "HWT", "STPE"})
    public TimerKind timer;

    private TimerUnderTest underTest;

    /** One calling thread's delays and cursor. */
    @State(Scope.Thread)
    public static class Cursor {
        long[] delaysMillis;
        int next;

        @Setup(Level.Trial)
        public void setUp(ThreadParams thread) {
            delaysMillis = Delays.uniform(DELAYS, 1_000, 3_600_000, Delays.SEED + thread.getThreadIndex());
        }

        long nextDelay() {
            long delay = delaysMillis[next];
            next = (next + 1) & (DELAYS - 1);
            return delay;
        }
    }

    @Setup(Level.Iteration)
    public void start() {
        underTest = timer.create();
    }

    @TearDown(Level.Iteration)
    public void stop() {
        underTest.close();
        underTest = null;
    }

    @Benchmark
    @Threads(1)
    public Object schedule1Thread(Cursor cursor) {
        return underTest.schedule(NoopJob.INSTANCE, cursor.nextDelay(), TimeUnit.MILLISECONDS);
    }

    @Benchmark
    @Threads(2)
    public Object schedule2Threads(Cursor cursor) {
        return underTest.schedule(NoopJob.INSTANCE, cursor.nextDelay(), TimeUnit.MILLISECONDS);
    }
}
