package dev.cim.benchmark;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Caller-side cost of one {@code cancel} call, from one thread, for the four timers. Before each
 * measured shot a fresh timer gets {@link #BATCH} jobs (delays uniform over 1..3600 s) and places
 * them, untimed; the shot cancels them all in scheduling order, and the score is its time divided by
 * {@link #BATCH}. Single-shot mode, so {@code -w}/{@code -r} do not apply; {@code -wi}/{@code -i}
 * set the number of shots.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(CancelBenchmark.BATCH)
@Warmup(iterations = 5)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
@State(Scope.Benchmark)
public class CancelBenchmark {

    static final int BATCH = 1_000_000;

    @Param({"OURS", "HWT", "KAFKA", "STPE"})
    public TimerKind timer;

    private TimerUnderTest underTest;
    private Object[] handles;

    @Setup(Level.Iteration)
    public void scheduleBatch() throws InterruptedException {
        System.gc(); // the previous shot's timer
        underTest = timer.create();
        long[] delays = Delays.uniform(BATCH, 1_000, 3_600_000, Delays.SEED);
        handles = new Object[BATCH];
        for (int i = 0; i < BATCH; i++) {
            handles[i] = underTest.schedule(NoopJob.INSTANCE, delays[i], TimeUnit.MILLISECONDS);
        }
        underTest.awaitSettled();
        System.gc();
    }

    @TearDown(Level.Iteration)
    public void stop() {
        underTest.close();
        underTest = null;
        handles = null;
    }

    @Benchmark
    public int cancelBatch() {
        int cancelled = 0;
        for (Object handle : handles) {
            if (underTest.cancel(handle)) {
                cancelled++;
            }
        }
        return cancelled;
    }
}
