package dev.cim.common.wheel;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread that keeps time for a {@link WheelScheduler}. It sleeps until the scheduler's
 * {@link Alarm} (the next occupied slot of the wheel, or for ever if nothing is pending), makes a
 * pass, and sleeps again; an entry due before the alarm, or the first schedule or cancellation
 * after a pass, sets the alarm earlier and wakes it. It sleeps to absolute instants, so a late
 * wake-up delays that one pass and is made up at once: lateness never accumulates. Jobs never run
 * on this thread.
 *
 * <p>The thread starts on the first {@link #wake()}, which comes from the first {@code schedule}:
 * an application that never schedules a job never has the thread (Netty's timer starts on its first
 * timeout too). A ticker stopped before it started never starts.
 */
final class WheelTicker implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(WheelTicker.class);

    private final WheelScheduler scheduler;
    private final ThreadFactory threads;
    private final long failureBackoffNanos;
    private volatile Thread thread;
    private volatile boolean stopped;

    /**
     * @param failureBackoffNanos how long to wait after a pass that threw before the next (one tick),
     *        so that a broken executor is not retried in a tight loop
     */
    WheelTicker(WheelScheduler scheduler, ThreadFactory threads, long failureBackoffNanos) {
        this.scheduler = scheduler;
        this.threads = threads;
        this.failureBackoffNanos = failureBackoffNanos;
    }

    /** Wakes the thread, starting it if this is the first call. Any thread. */
    void wake() {
        Thread current = thread;
        if (current == null) {
            current = start();
        }
        if (current != null) {
            LockSupport.unpark(current);
        }
    }

    private synchronized Thread start() {
        if (thread == null && !stopped) {
            Thread started = threads.newThread(this);
            started.start();
            thread = started;
        }
        return thread;
    }

    @Override
    public void run() {
        while (!stopped) {
            long wait = scheduler.nanosUntilAlarm();
            if (wait > 0) {
                if (wait == Long.MAX_VALUE) {
                    LockSupport.park(this); // nothing pending: until a schedule or a stop wakes it
                } else {
                    LockSupport.parkNanos(this, wait); // may return early; the loop checks again
                }
                continue;
            }
            try {
                scheduler.advance();
            } catch (Throwable unexpected) {
                // Jobs run elsewhere, so this is a bug or an executor fault (an Error such as "unable
                // to create native thread"). The wheel kept every entry; try again a tick later.
                log.error("The delay wheel failed to advance; it tries again in {} ns", failureBackoffNanos,
                        unexpected);
                LockSupport.parkNanos(this, failureBackoffNanos);
            }
        }
    }

    /** Stops the thread and waits for it to end, unless called from the thread itself. */
    void stop() {
        Thread current;
        synchronized (this) {
            stopped = true;
            current = thread;
        }
        if (current == null) {
            return;
        }
        LockSupport.unpark(current);
        if (Thread.currentThread() == current) {
            return;
        }
        boolean interrupted = false;
        while (current.isAlive()) {
            try {
                current.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
