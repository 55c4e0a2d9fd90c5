package dev.cim.benchmark.conventions;

import dev.cim.common.wheel.DelayScheduler;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.server.util.timer.Timer;
import org.apache.kafka.server.util.timer.TimerTask;

/**
 * Our wheel behind Kafka's {@link Timer}, so that Kafka's own {@code TimerTest} and
 * {@code SystemTimerReaperTest} scenarios run against it. A thin adapter: {@link #add} schedules the
 * task after its {@code delayMs}.
 *
 * <p>One difference is in the contract itself. Kafka's {@code SystemTimer} moves only when someone
 * calls {@link #advanceClock} (its reaper thread does, in a loop); our wheel has its own thread and
 * runs tasks on time whether or not anyone calls. So {@code advanceClock(timeoutMs)} here only
 * observes: it waits up to {@code timeoutMs} for a task to have expired since the previous call and
 * says whether one has, which is what a caller of Kafka's method learns from its return value.
 * Cancelling through Kafka's {@link TimerTask#cancel()} reaches only Kafka's own timer entry, so it is
 * not supported here (no ported test uses it).
 */
final class WheelAsKafkaTimer implements Timer {

    private final DelayScheduler wheel;
    private final AtomicLong expired = new AtomicLong();
    private long seen;

    WheelAsKafkaTimer(DelayScheduler wheel) {
        this.wheel = wheel;
    }

    DelayScheduler wheel() {
        return wheel;
    }

    @Override
    public void add(TimerTask task) {
        wheel.schedule(() -> {
            task.run();
            synchronized (expired) {
                expired.incrementAndGet();
                expired.notifyAll();
            }
        }, task.delayMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public boolean advanceClock(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        synchronized (expired) {
            while (expired.get() == seen) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(expired, left);
            }
            seen = expired.get();
            return true;
        }
    }

    @Override
    public int size() {
        return (int) wheel.pending();
    }

    @Override
    public void close() {
        wheel.stopNow();
    }
}
