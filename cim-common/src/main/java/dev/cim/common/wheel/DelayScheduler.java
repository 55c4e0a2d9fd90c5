package dev.cim.common.wheel;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs jobs once after a delay. This is the contract; {@link #builder()} makes the ring-buffer
 * implementation, and the {@code cim-common} auto-configuration makes one as a Spring bean set by
 * the {@code cim.wheel.*} properties.
 *
 * <h3>Guarantees</h3>
 * <ul>
 *   <li>A job never runs before its due time, and normally runs within {@code tick / slots} after it
 *       (plus the time its threads take to wake): each job at its own deadline, not at the end of
 *       a tick.</li>
 *   <li>A delay of zero or less means "now": the job runs as soon as a worker takes it, never
 *       before the call; the same convention as {@code ScheduledExecutorService}.</li>
 *   <li>Nothing runs while nothing is due: the timekeeping thread sleeps until the next job (or the
 *       next bookkeeping step of a far-future one), and starts only with the first job.</li>
 *   <li>A job runs at most once, on a worker thread, never on the thread that keeps time.</li>
 *   <li>A job that throws is logged with its {@link Job#description() description}; other jobs and
 *       the scheduler carry on.</li>
 *   <li>All methods are safe to call from any thread.</li>
 * </ul>
 *
 * <h3>Stopping</h3>
 * {@link #drain(Duration)} stops taking jobs but runs every pending one at its due time, waiting up
 * to a timeout; {@link #stopNow()} discards pending jobs at once. Both say what was left undone, and
 * both make later {@code schedule} calls throw {@link RejectedExecutionException}. {@link #close()}
 * drains with the timeout the scheduler was built with.
 */
public interface DelayScheduler extends AutoCloseable {

    /**
     * Schedules {@code job} to run once, {@code delay} from now.
     *
     * @return the job's handle
     * @throws NullPointerException if {@code job} or {@code delay} is null
     * @param delay how long from now; zero or negative runs the job at once
     * @throws IllegalArgumentException if {@code delay} is longer than the maximum delay
     * @throws RejectedExecutionException if the scheduler is stopping or stopped, or the cap on
     *         pending jobs is reached
     */
    ScheduledJob schedule(Runnable job, Duration delay);

    /**
     * Schedules {@code job} to run once, {@code delay} {@code unit}s from now; see
     * {@link #schedule(Runnable, Duration)}.
     */
    ScheduledJob schedule(Runnable job, long delay, TimeUnit unit);

    /**
     * The number of jobs accepted and not yet finished: waiting, due, or running. A cancelled job
     * leaves the count at the wheel's next pass, which the cancel asks for at once.
     */
    long pending();

    /** The jobs that have not started, in due order. Costs a walk of the wheel; meant for people. */
    List<PendingJob> pendingJobs();

    /**
     * Stops taking jobs, keeps running pending ones at their due times, and waits until all have
     * finished or {@code timeout} has passed; it returns early once every job left is due after the
     * timeout. Whatever has not run by then is discarded and reported.
     * Calling it again, or after {@link #stopNow()}, reports nothing left.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    StopReport drain(Duration timeout) throws InterruptedException;

    /** Stops at once: discards every job that has not started and reports them. */
    StopReport stopNow();

    /** Drains with the shutdown timeout given at construction; see {@link #drain(Duration)}. */
    @Override
    void close() throws InterruptedException;

    /** A builder for the ring-buffer implementation. */
    static DelaySchedulerBuilder builder() {
        return new DelaySchedulerBuilder();
    }
}
