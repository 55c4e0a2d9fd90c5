package dev.cim.common.wheel;

/**
 * Where a scheduled job is in its life. A job starts {@link #PENDING} and ends in exactly one of the
 * terminal states; it runs at most once.
 *
 * <pre>
 *   PENDING ──due──▶ RUNNING ──▶ DONE | FAILED
 *      │
 *      ├──cancel()──────────▶ CANCELLED
 *      └──stopNow() / drain timeout / scheduled after stop ──▶ DISCARDED
 * </pre>
 */
public enum JobState {
    /** Waiting for its due time, or due and waiting for a worker thread. */
    PENDING,
    /** Running on a worker thread. */
    RUNNING,
    /** Ran and returned normally. */
    DONE,
    /** Ran and threw; the exception was logged with the job's description. */
    FAILED,
    /** Cancelled through its handle before it started; it will never run. */
    CANCELLED,
    /** Dropped by a stop before it ran; it will never run. */
    DISCARDED;

    /** Whether the job has left {@link #PENDING} and {@link #RUNNING} for good. */
    public boolean isTerminal() {
        return this != PENDING && this != RUNNING;
    }
}
