package dev.cim.common.autoconfigure;

import dev.cim.common.wheel.DelayScheduler;
import dev.cim.common.wheel.PendingJob;
import dev.cim.common.wheel.StopReport;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Drains the {@link DelayScheduler} when the application context stops. It runs in the last phase
 * to start and so the first to stop, while the connections that delayed jobs use are still open;
 * beans such as network clients and servers should use a lower phase.
 */
public final class DelaySchedulerDrain implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(DelaySchedulerDrain.class);

    private final DelayScheduler scheduler;
    private final Duration timeout;
    private volatile boolean running;

    public DelaySchedulerDrain(DelayScheduler scheduler, Duration timeout) {
        this.scheduler = scheduler;
        this.timeout = timeout;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        try {
            long pending = scheduler.pending();
            if (pending > 0) {
                log.info("Waiting up to {} for {} delayed jobs to run", timeout, pending);
            }
            report(scheduler.drain(timeout));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            report(scheduler.stopNow());
        }
    }

    private static void report(StopReport report) {
        for (PendingJob discarded : report.discarded()) {
            log.warn("Discarded delayed job {} due at {}: {}", discarded.id(), discarded.dueAt(), discarded.description());
        }
        if (report.stillRunning() > 0) {
            log.warn("{} delayed jobs were still running at shutdown", report.stillRunning());
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }
}
