package dev.cim.benchmark;

import dev.cim.common.wheel.DelayScheduler;
import dev.cim.common.wheel.ScheduledJob;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Our {@link DelayScheduler}, one worker thread. Its ticker thread is found by name: each instance
 * gets a unique {@code threadNamePrefix}, and the builder names the ticker {@code <prefix>-ticker}.
 */
final class OursTimer implements TimerUnderTest {

    /** Long enough for every delay used here (up to 2 h); decides the number of rings. */
    static final Duration MAX_DELAY = Duration.ofHours(3);

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final DelayScheduler scheduler;
    private final Thread ticker;
    private final long tickNanos;

    OursTimer(Duration tick, int slots) {
        String prefix = "bench-ours-" + INSTANCES.incrementAndGet();
        this.tickNanos = tick.toNanos();
        this.scheduler = DelayScheduler.builder()
                .tick(tick)
                .slots(slots)
                .maxDelay(MAX_DELAY)
                .workerThreads(1)
                .threadNamePrefix(prefix)
                .build();
        this.ticker = findThread(prefix + "-ticker");
    }

    private static Thread findThread(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no thread named " + name));
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
    public long tickNanos() {
        return tickNanos;
    }

    @Override
    public void close() {
        scheduler.stopNow();
    }
}
