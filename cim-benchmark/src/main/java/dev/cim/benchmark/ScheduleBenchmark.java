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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Caller-side wall time of one {@code schedule} call, for the four timers, from 1 and from 2
 * threads: each measured shot schedules {@link #JOBS} jobs (delays uniform over 1..3600 s, fixed
 * seed, so nothing falls due) into a fresh timer, split evenly between the threads, and the score
 * is a thread's shot time divided by the jobs it scheduled.
 *
 * <p>Only the calling threads are timed, but in wall time: GC pauses and the timer's own thread
 * competing for the cores are in the score; the work that thread does is not (WheelComparison part 1
 * adds it). A bounded batch per fresh timer, rather than a timed loop, keeps the pending jobs, and so
 * the heap and the GC work, the same for every timer: a timed loop leaves millions more jobs behind
 * with the faster timer (and with Netty's, whose queue outgrows what its worker moves per tick, it
 * took the JVM into a G1 mark-stack overflow). Single-shot mode: {@code -w}/{@code -r} do not apply;
 * {@code -wi}/{@code -i} set the number of shots.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
@State(Scope.Benchmark)
public class ScheduleBenchmark {

    static final int JOBS = 1_000_000;

    /** The delays of all jobs, in milliseconds; each thread takes its own contiguous share. */
    static final long[] DELAYS_MILLIS = Delays.uniform(JOBS, 1_000, 3_600_000, Delays.SEED);

    @Param({"OURS", "HWT", "KAFKA", "STPE"})
    public TimerKind timer;

    private TimerUnderTest underTest;

    /** A calling thread's share of the delays. */
    @State(Scope.Thread)
    public static class Share {
        int from;
        int to;

        @Setup(Level.Trial)
        public void setUp(ThreadParams thread) {
            int threads = thread.getThreadCount();
            int index = thread.getThreadIndex();
            from = (int) ((long) JOBS * index / threads);
            to = (int) ((long) JOBS * (index + 1) / threads);
        }
    }

    @Setup(Level.Iteration)
    public void start() throws InterruptedException {
        System.gc(); // the previous shot's timer and jobs
        underTest = timer.create();
    }

    @TearDown(Level.Iteration)
    public void stop() {
        underTest.close();
        underTest = null;
    }

    private int scheduleShare(Share share) {
        TimerUnderTest target = underTest;
        for (int i = share.from; i < share.to; i++) {
            target.schedule(NoopJob.INSTANCE, DELAYS_MILLIS[i], TimeUnit.MILLISECONDS);
        }
        return share.to - share.from;
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(JOBS)
    public int schedule1Thread(Share share) {
        return scheduleShare(share);
    }

    @Benchmark
    @Threads(2)
    @OperationsPerInvocation(JOBS / 2)
    public int schedule2Threads(Share share) {
        return scheduleShare(share);
    }
}
