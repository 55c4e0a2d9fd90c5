package dev.cim.benchmark;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Netty's {@link HashedWheelTimer} with its defaults besides tick and slots; it runs expired tasks
 * on its own worker thread. Started eagerly so its thread exists before any measurement.
 */
final class NettyTimer implements TimerUnderTest {

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final HashedWheelTimer timer;
    private final Thread worker;
    private final long tickNanos;

    NettyTimer(Duration tick, int slots) {
        RecordingThreadFactory threads = new RecordingThreadFactory("bench-hwt-" + INSTANCES.incrementAndGet());
        this.tickNanos = tick.toNanos();
        this.timer = new HashedWheelTimer(threads, tickNanos, TimeUnit.NANOSECONDS, slots);
        timer.start();
        this.worker = threads.thread();
    }

    @Override
    public String name() {
        return "HashedWheelTimer";
    }

    @Override
    public Object schedule(BenchJob job, long delay, TimeUnit unit) {
        return timer.newTimeout(job, delay, unit);
    }

    @Override
    public boolean cancel(Object handle) {
        return ((Timeout) handle).cancel();
    }

    @Override
    public Thread timerThread() {
        return worker;
    }

    @Override
    public long tickNanos() {
        return tickNanos;
    }

    @Override
    public void close() {
        timer.stop();
    }
}
