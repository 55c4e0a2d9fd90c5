package dev.cim.common.wheel;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread that keeps time for a {@link WheelScheduler}: it sleeps until the next tick's absolute
 * deadline ({@code origin + n * tick}, never "now + tick"), then advances the wheel. A late wake-up
 * therefore delays one tick and is made up at the next: lateness never accumulates, unlike a loop
 * that sleeps a fixed time after doing its work. Jobs never run on this thread.
 */
final class WheelTicker implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(WheelTicker.class);

    private final WheelScheduler scheduler;
    private final TimeSource clock;
    private final Thread thread;
    private volatile boolean stopped;

    WheelTicker(WheelScheduler scheduler, TimeSource clock, ThreadFactory threads) {
        this.scheduler = scheduler;
        this.clock = clock;
        this.thread = threads.newThread(this);
    }

    void start() {
        thread.start();
    }

    @Override
    public void run() {
        while (!stopped) {
            long wait = scheduler.nextTickNanos() - clock.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(this, wait); // may return early; the loop checks again
                continue;
            }
            try {
                scheduler.advance();
            } catch (Throwable unexpected) {
                // Jobs run elsewhere, so this is a bug or an executor fault; keep time regardless.
                log.error("The delay wheel failed to advance; it keeps ticking", unexpected);
            }
        }
    }

    /** Stops the thread and waits for it to end, unless called from the thread itself. */
    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
        if (Thread.currentThread() == thread) {
            return;
        }
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
