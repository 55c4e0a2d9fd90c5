package dev.cim.common.wheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Instant;

/**
 * One scheduled job: its handle for the caller, its node in the wheel, and the task a worker runs.
 *
 * <p>Memory is the budget here (48 bytes with compressed oops, the job object not counted), so the
 * entry carries no separate state field: {@link #job} holds the job while it is pending, null once
 * cancelled, and a {@link Mark} for the other states. Every transition out of pending is one CAS on
 * that field, which is also what makes a job run at most once and what releases the job object.
 * Cancelling stores null rather than a marker: storing null into an entry that has aged into the old
 * generation skips the garbage collector's card-marking barrier, and it is the hot transition. The
 * checks below compare identities and never touch the job object, which is usually cold.
 *
 * <p>Link fields: {@link #next} chains the entry in the scheduling {@link EntryInbox} and later in
 * its {@link WheelBucket}; {@link #prev} is non-null exactly while it is in a bucket;
 * {@link #cancelNext} chains it in the cancellation inbox. Only the thread holding the wheel lock
 * touches {@code next} and {@code prev} once the entry has left the inbox. Links are cleared when an
 * entry leaves a chain, so a handle kept by the caller never holds other entries in memory.
 */
final class WheelEntry implements ScheduledJob, Runnable {

    /** The states an entry reaches after pending, other than cancelled (null), stored in {@link #job}. */
    enum Mark {
        RUNNING(JobState.RUNNING),
        DONE(JobState.DONE),
        FAILED(JobState.FAILED),
        DISCARDED(JobState.DISCARDED);

        final JobState state;

        Mark(JobState state) {
            this.state = state;
        }
    }

    private static final VarHandle JOB;
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            JOB = lookup.findVarHandle(WheelEntry.class, "job", Object.class);
            NEXT = lookup.findVarHandle(WheelEntry.class, "next", WheelEntry.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long id;
    /** Due time on the owner's {@link TimeSource#nanoTime()} scale. */
    final long deadline;
    private final WheelScheduler owner;
    /** The {@link Runnable} while pending, null once cancelled, otherwise a {@link Mark}. */
    @SuppressWarnings("unused")
    private volatile Object job;

    WheelEntry next;
    WheelEntry prev;
    private WheelEntry cancelNext;

    WheelEntry(WheelScheduler owner, long id, long deadline, Runnable job) {
        this.owner = owner;
        this.id = id;
        this.deadline = deadline;
        // A plain write: a volatile one would fence on the schedule hot path, and the entry is
        // published to other threads by the inbox's getAndSet anyway.
        JOB.set(this, job);
    }

    /**
     * A list head that is never scheduled, circularly linked to itself. A bucket's sentinel carries
     * the bucket's slot code in {@link #deadline}, so that unlinking the last entry of a bucket can
     * tell which bucket it emptied (see {@link WheelBucket#remove}).
     */
    static WheelEntry sentinel(long code) {
        WheelEntry sentinel = new WheelEntry(null, -1, code, null);
        sentinel.next = sentinel;
        sentinel.prev = sentinel;
        return sentinel;
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public Instant dueAt() {
        return owner.toInstant(deadline);
    }

    @Override
    public String description() {
        Object current = job;
        return isJob(current) ? Job.describe((Runnable) current) : "(" + state() + ")";
    }

    @Override
    public JobState state() {
        Object current = job;
        if (current == null) {
            return JobState.CANCELLED;
        }
        return current instanceof Mark mark ? mark.state : JobState.PENDING;
    }

    /** Whether {@code value} of {@link #job} is the job itself, i.e. the entry is pending. */
    private static boolean isJob(Object value) {
        return value != null && value != Mark.RUNNING && value != Mark.DONE && value != Mark.FAILED
                && value != Mark.DISCARDED;
    }

    boolean isPending() {
        return isJob(job);
    }

    /** Whether the entry was cancelled. */
    boolean isCancelled() {
        return job == null;
    }

    @Override
    public boolean cancel() {
        Object current = job;
        if (!isJob(current) || !JOB.compareAndSet(this, current, null)) {
            return false;
        }
        owner.cancelled(this);
        return true;
    }

    /**
     * Moves a pending entry to {@code mark}, dropping the reference to the job.
     *
     * @return whether this call made the move (false if the entry had already left pending)
     */
    boolean leavePending(Mark mark) {
        Object current = job;
        return isJob(current) && JOB.compareAndSet(this, current, mark);
    }

    /** The snapshot line for this entry, or null if it has left pending meanwhile. */
    PendingJob snapshot() {
        Object current = job;
        return isJob(current) ? new PendingJob(id, owner.toInstant(deadline), Job.describe((Runnable) current)) : null;
    }

    /** Runs the job on a worker thread, unless it was cancelled or discarded since it fell due. */
    @Override
    public void run() {
        Object current = job;
        if (!isJob(current) || !JOB.compareAndSet(this, current, Mark.RUNNING)) {
            return;
        }
        Runnable task = (Runnable) current;
        try {
            task.run();
            job = Mark.DONE;
        } catch (Throwable failure) {
            job = Mark.FAILED;
            owner.jobFailed(this, task, failure);
        } finally {
            owner.finished();
        }
    }

    // Links of the scheduling inbox. A producer publishes an entry before it knows its successor,
    // so the link starts as EntryInbox.LINKING and is set with release semantics; the consumer
    // reads it with acquire.

    void setNextRelease(WheelEntry value) {
        NEXT.setRelease(this, value);
    }

    WheelEntry nextAcquire() {
        return (WheelEntry) NEXT.getAcquire(this);
    }

    // The link of the cancellation inbox: written before the compare-and-set that publishes the
    // entry, and read after the getAndSet that takes the chain, so plain accesses suffice.

    WheelEntry cancelNext() {
        return cancelNext;
    }

    void setCancelNext(WheelEntry value) {
        cancelNext = value;
    }

    @Override
    public String toString() {
        return "ScheduledJob[id=" + id + ", state=" + state() + "]";
    }
}
