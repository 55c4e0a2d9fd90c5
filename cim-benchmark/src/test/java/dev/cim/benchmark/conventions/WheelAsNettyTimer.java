package dev.cim.benchmark.conventions;

import dev.cim.common.wheel.DelayScheduler;
import dev.cim.common.wheel.JobState;
import dev.cim.common.wheel.PendingJob;
import dev.cim.common.wheel.ScheduledJob;
import dev.cim.common.wheel.StopReport;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Our wheel behind Netty's {@link Timer}, so that Netty's own {@code HashedWheelTimerTest} scenarios
 * run against it. A thin adapter: a {@link Timeout} is our {@link ScheduledJob} seen through Netty's
 * names, and {@link #stop()} is {@link DelayScheduler#stopNow()}, its discarded jobs mapped back to
 * their timeouts.
 */
final class WheelAsNettyTimer implements Timer {

    private final DelayScheduler wheel;
    /** Every timeout not yet run, cancelled or stopped, by job id: what stop() hands back. */
    private final Map<Long, WheelTimeout> issued = new ConcurrentHashMap<>();

    WheelAsNettyTimer(DelayScheduler wheel) {
        this.wheel = wheel;
    }

    DelayScheduler wheel() {
        return wheel;
    }

    /** Netty's {@code HashedWheelTimer.pendingTimeouts()}. */
    long pendingTimeouts() {
        return wheel.pending();
    }

    @Override
    public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
        WheelTimeout timeout = new WheelTimeout(this, task);
        ScheduledJob job = wheel.schedule(timeout, delay, unit);
        timeout.job = job;
        if (!timeout.started) { // one that already ran is not pending: stop() has nothing to return for it
            issued.put(job.id(), timeout);
        }
        return timeout;
    }

    @Override
    public Set<Timeout> stop() {
        StopReport report = wheel.stopNow();
        Set<Timeout> unprocessed = new HashSet<>();
        for (PendingJob discarded : report.discarded()) {
            WheelTimeout timeout = issued.remove(discarded.id());
            if (timeout != null) {
                unprocessed.add(timeout);
            }
        }
        return unprocessed;
    }

    /** A Netty {@link Timeout} over one of our jobs; it is also the job the wheel runs. */
    static final class WheelTimeout implements Timeout, Runnable {
        private final WheelAsNettyTimer timer;
        private final TimerTask task;
        private volatile ScheduledJob job;
        private volatile boolean started;

        WheelTimeout(WheelAsNettyTimer timer, TimerTask task) {
            this.timer = timer;
            this.task = task;
        }

        @Override
        public void run() {
            started = true;
            ScheduledJob scheduled = job; // null only while newTimeout has not returned: it skips the put then
            if (scheduled != null) {
                timer.issued.remove(scheduled.id());
            }
            try {
                task.run(this);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("timer task failed", e); // logged by the wheel, as Netty logs it
            }
        }

        /** Our job's state; what the ported tests look at where Netty's conventions differ. */
        JobState state() {
            return job.state();
        }

        @Override
        public Timer timer() {
            return timer;
        }

        @Override
        public TimerTask task() {
            return task;
        }

        @Override
        public boolean isExpired() {
            ScheduledJob scheduled = job; // null only while newTimeout has not returned
            if (started || scheduled == null) {
                return started;
            }
            JobState state = scheduled.state();
            return state == JobState.RUNNING || state == JobState.DONE || state == JobState.FAILED;
        }

        @Override
        public boolean isCancelled() {
            ScheduledJob scheduled = job; // null only while newTimeout has not returned
            return scheduled != null && scheduled.state() == JobState.CANCELLED;
        }

        @Override
        public boolean cancel() {
            boolean cancelled = job.cancel();
            if (cancelled) {
                timer.issued.remove(job.id());
            }
            return cancelled;
        }
    }
}
