package dev.cim.benchmark;

import dev.cim.common.wheel.DelayScheduler;
import dev.cim.common.wheel.ScheduledJob;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Our {@link DelayScheduler}, one worker thread. Its threads start with the first job, so the
 * constructor runs a zero-delay job to start the ticker (and the worker) before any measurement, as
 * the other adapters start their timers; each instance gets a unique {@code threadNamePrefix}, and
 * the builder names the ticker {@code <prefix>-ticker} and the worker {@code <prefix>-worker-1}.
 */
final class OursTimer implements TimerUnderTest {

    /** Long enough for every delay used here (up to 2 h); decides the number of rings. */
    static final Duration MAX_DELAY = Duration.ofHours(3);

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final DelayScheduler scheduler;
    private final String prefix;
    private final Thread ticker;
    private final long tickNanos;

    OursTimer(Duration tick, int slots) {
        this.prefix = "bench-ours-" + INSTANCES.incrementAndGet();
        this.tickNanos = tick.toNanos();
        this.scheduler = DelayScheduler.builder()
                .tick(tick)
                .slots(slots)
                .maxDelay(MAX_DELAY)
                .workerThreads(1)
                .threadNamePrefix(prefix)
                .build();
        start();
        this.ticker = TimerThreads.the(prefix + "-ticker");
    }

    private void start() {
        MarkerJob first = new MarkerJob();
        scheduler.schedule(first, Duration.ZERO);
        try {
            if (!first.await(SETTLE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the wheel did not run its first job");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the wheel", e);
        }
    }

    @Override
    public String name() {
        return "ours";
    }

    @Override
    public Object schedule(BenchJob job, long delay, TimeUnit unit) {
        return scheduler.schedule(job, delay, unit);
    }

    @Override
    public boolean cancel(Object handle) {
        return ((ScheduledJob) handle).cancel();
    }

    @Override
    public Thread timerThread() {
        return ticker;
    }

    @Override
    public List<Thread> allThreads() {
        return TimerThreads.withPrefix(prefix + "-");
    }

    @Override
    public long tickNanos() {
        return tickNanos;
    }

    @Override
    public void close() {
        scheduler.stopNow();
    }
}
