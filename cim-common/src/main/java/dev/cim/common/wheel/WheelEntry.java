package dev.cim.common.wheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Instant;

/**
 * One scheduled job: its handle for the caller, its node in the wheel, and the task a worker runs.
 *
 * <p>Memory is the budget here (48 bytes with compressed oops, the job object not counted), so the
 * entry carries no separate state field: {@link #job} holds the job while it is pending and a
 * {@link Mark} once it has left that state. Every transition out of pending is one CAS on that field,
 * which is also what makes a job run at most once and what releases the job object on cancel.
 *
 * <p>Link fields: {@link #next} chains the entry in the scheduling {@link EntryInbox} and later in
 * its {@link WheelBucket}; {@link #prev} is non-null exactly while it is in a bucket;
 * {@link #cancelNext} chains it in the cancellation inbox. Only the thread holding the wheel lock
 * touches {@code next} and {@code prev} once the entry has left the inbox.
 */
final class WheelEntry implements ScheduledJob, Runnable {

    /** The states an entry reaches after pending, stored in {@link #job} in place of the job. */
    enum Mark {
        RUNNING(JobState.RUNNING),
        DONE(JobState.DONE),
        FAILED(JobState.FAILED),
        CANCELLED(JobState.CANCELLED),
        DISCARDED(JobState.DISCARDED);

        final JobState state;

        Mark(JobState state) {
            this.state = state;
        }
    }

    private static final VarHandle JOB;
    private static final VarHandle NEXT;
    private static final VarHandle CANCEL_NEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            JOB = lookup.findVarHandle(WheelEntry.class, "job", Object.class);
            NEXT = lookup.findVarHandle(WheelEntry.class, "next", WheelEntry.class);
            CANCEL_NEXT = lookup.findVarHandle(WheelEntry.class, "cancelNext", WheelEntry.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long id;
    /** Due time on the owner's {@link TimeSource#nanoTime()} scale. */
    final long deadline;
    private final WheelScheduler owner;
    /** The {@link Runnable} while pending, afterwards a {@link Mark}. Accessed through {@link #JOB}. */
    @SuppressWarnings("unused")
    private volatile Object job;

    WheelEntry next;
    WheelEntry prev;
    @SuppressWarnings("unused")
    private WheelEntry cancelNext;

    WheelEntry(WheelScheduler owner, long id, long deadline, Runnable job) {
        this.owner = owner;
        this.id = id;
        this.deadline = deadline;
        // A plain write: a volatile one would fence on the schedule hot path, and the entry is
        // published to other threads by the inbox's getAndSet anyway.
        JOB.set(this, job);
    }

    /** A bucket's sentinel: a list head that is never scheduled, circularly linked to itself. */
    static WheelEntry sentinel() {
        WheelEntry sentinel = new WheelEntry(null, -1, 0, null);
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
        return current instanceof Runnable pending ? Job.describe(pending) : "(" + current + ")";
    }

    @Override
    public JobState state() {
        return job instanceof Mark mark ? mark.state : JobState.PENDING;
    }

    boolean isPending() {
        return !(job instanceof Mark);
    }

    /** Whether the entry was cancelled: an identity check, cheaper than {@link #isPending()}. */
    boolean isCancelled() {
        return job == Mark.CANCELLED;
    }

    @Override
    public boolean cancel() {
        if (!leavePending(Mark.CANCELLED)) {
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
        return current instanceof Runnable && JOB.compareAndSet(this, current, mark);
    }

    /** The snapshot line for this entry, or null if it has left pending meanwhile. */
    PendingJob snapshot() {
        Object current = job;
        return current instanceof Runnable pending
                ? new PendingJob(id, owner.toInstant(deadline), Job.describe(pending))
                : null;
    }

    /** Runs the job on a worker thread, unless it was cancelled or discarded since it fell due. */
    @Override
    public void run() {
        Object current = job;
        if (!(current instanceof Runnable task) || !JOB.compareAndSet(this, current, Mark.RUNNING)) {
            return;
        }
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

    // Inbox links. A producer publishes an entry before it knows its successor, so the link starts as
    // EntryInbox.LINKING and is set with release semantics; the consumer reads it with acquire.

    void setNextRelease(WheelEntry value) {
        NEXT.setRelease(this, value);
    }

    WheelEntry nextAcquire() {
        return (WheelEntry) NEXT.getAcquire(this);
    }

    void setCancelNextRelease(WheelEntry value) {
        CANCEL_NEXT.setRelease(this, value);
    }

    WheelEntry cancelNextAcquire() {
        return (WheelEntry) CANCEL_NEXT.getAcquire(this);
    }

    @Override
    public String toString() {
        return "ScheduledJob[id=" + id + ", state=" + state() + "]";
    }
}
