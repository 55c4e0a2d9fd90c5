package dev.cim.benchmark;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.util.timer.SystemTimer;
import org.apache.kafka.server.util.timer.SystemTimerReaper;
import org.apache.kafka.server.util.timer.TimerTask;

/**
 * Kafka's hierarchical timing wheel as Kafka's brokers run it: a {@link SystemTimer} (tick as given,
 * Kafka's default wheel size of 20 buckets) driven by a {@link SystemTimerReaper}, whose thread
 * polls the timer's {@code DelayQueue} of buckets with a 200 ms timeout and hands expired tasks to
 * the timer's one executor thread.
 *
 * <p>Kafka's tasks are {@link TimerTask} subclasses that carry their delay in whole milliseconds,
 * and a task can be in the timer only once; so each job is wrapped in a {@link Task}, which is part
 * of Kafka's cost per job (heap included), and its delay is truncated to milliseconds as a Kafka
 * caller would. Cancelling goes through {@link TimerTask#cancel()}.
 */
final class KafkaTimer implements TimerUnderTest {

    /** Kafka's own default ({@code SystemTimer(String)}). */
    static final int WHEEL_SIZE = 20;

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final SystemTimerReaper timer;
    private final String prefix;
    private final Thread reaper;
    private final long tickNanos;

    KafkaTimer(Duration tick) {
        this.prefix = "bench-kafka-" + INSTANCES.incrementAndGet();
        this.tickNanos = tick.toNanos();
        SystemTimer wheel = new SystemTimer(prefix, Math.max(1, tick.toMillis()), WHEEL_SIZE, Time.SYSTEM.hiResClockMs());
        this.timer = new SystemTimerReaper(prefix + "-reaper", wheel);
        this.reaper = TimerThreads.the(prefix + "-reaper");
    }

    /** One job as a Kafka task: Kafka's timer takes nothing else. */
    static final class Task extends TimerTask {
        private final Runnable job;

        Task(long delayMs, Runnable job) {
            super(delayMs);
            this.job = job;
        }

        @Override
        public void run() {
            job.run();
        }
    }

    @Override
    public String name() {
        return "Kafka SystemTimer";
    }

    @Override
    public Object schedule(BenchJob job, long delay, TimeUnit unit) {
        Task task = new Task(unit.toMillis(delay), job);
        timer.add(task);
        return task;
    }

    @Override
    public boolean cancel(Object handle) {
        Task task = (Task) handle;
        boolean wasLive = !task.isCancelled();
        task.cancel();
        return wasLive;
    }

    @Override
    public Thread timerThread() {
        return reaper;
    }

    @Override
    public List<Thread> allThreads() {
        // The reaper, and the executor thread SystemTimer names "executor-" + its name.
        return TimerThreads.named(prefix + "-reaper", SystemTimer.SYSTEM_TIMER_THREAD_PREFIX + prefix);
    }

    @Override
    public long tickNanos() {
        return tickNanos;
    }

    @Override
    public void close() {
        try {
            timer.close();
        } catch (Exception e) {
            throw new IllegalStateException("closing Kafka's timer failed", e);
        }
    }
}
