package dev.cim.server.chat.platform;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A daemon thread of its own that runs one task every interval, from {@link #start} to
 * {@link #close}: the driver of a part that works in the background (a scan, a write-behind), kept
 * apart from the part, which stays a plain object with a method to call (and to call from tests).
 * A run that throws is logged, and the next runs at its time.
 */
public final class Periodic implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Periodic.class);

    private final String threadName;
    private final Runnable task;
    private final Duration initialDelay;
    private final Duration interval;
    private ScheduledExecutorService thread;

    /**
     * @param threadName   the thread's name, for thread dumps
     * @param initialDelay before the first run, at least 0
     * @param interval     between the end of a run and the start of the next, more than 0
     */
    public Periodic(String threadName, Runnable task, Duration initialDelay, Duration interval) {
        if (initialDelay.isNegative()) {
            throw new IllegalArgumentException(threadName + " initial delay: " + initialDelay + " (expected: >= 0)");
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException(threadName + " interval: " + interval + " (expected: > 0)");
        }
        this.threadName = threadName;
        this.task = task;
        this.initialDelay = initialDelay;
        this.interval = interval;
    }

    /** Starts the thread; calling it again does nothing. */
    public synchronized void start() {
        if (thread != null) {
            return;
        }
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        thread.scheduleWithFixedDelay(this::runOnce, initialDelay.toMillis(), Math.max(1, interval.toMillis()),
                TimeUnit.MILLISECONDS);
    }

    private void runOnce() {
        try {
            task.run();
        } catch (RuntimeException e) {
            log.error("A run of {} failed; the next runs at its time", threadName, e);
        }
    }

    /** Stops the thread, interrupting a run in progress; later calls do nothing. */
    @Override
    public synchronized void close() {
        if (thread != null) {
            thread.shutdownNow();
            thread = null;
        }
    }
}
