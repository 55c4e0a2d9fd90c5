package dev.cim.common.wheel;

import java.time.Instant;

/** The handle of a job given to a {@link DelayScheduler}. Safe to use from any thread. */
public interface ScheduledJob {

    /** The job's id: unique within its scheduler, increasing in the order jobs were scheduled. */
    long id();

    /** When the job is due: it never runs before this instant, and normally within tick / slots after. */
    Instant dueAt();

    /**
     * The job's {@link Job#description()} while it is pending. Once it has left pending the job
     * object is released, and this names the state instead, e.g. {@code "(CANCELLED)"}.
     */
    String description();

    /** Where the job is in its life; see {@link JobState}. */
    JobState state();

    /**
     * Cancels the job if it has not started. O(1); the job object is released at once, and the
     * scheduler's own bookkeeping for it at the wheel's next pass, which the cancel asks for.
     *
     * @return {@code true} if this call stopped the job from ever running; {@code false} if it had
     *         already started, finished, or been cancelled or discarded
     */
    boolean cancel();
}
