package dev.cim.benchmark;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One timer under comparison, behind the few operations the measurements need. Handles are plain
 * {@link Object}s so the harness treats every timer alike; each adapter casts back to its own type.
 */
interface TimerUnderTest extends AutoCloseable {

    /** How long {@link #awaitSettled()} waits for each marker before giving up. */
    long SETTLE_TIMEOUT_SECONDS = 120;

    /** A short display name. */
    String name();

    /** Schedules {@code job} once, after {@code delay}; returns the timer's handle for it. */
    Object schedule(BenchJob job, long delay, TimeUnit unit);

    /** Cancels a job through the handle {@link #schedule} returned. */
    boolean cancel(Object handle);

    /**
     * The timer's own thread, already started: the ticker (ours), the worker (Netty, executor), the
     * reaper (Kafka). The one whose deferred work parts 1 and 2 count.
     */
    Thread timerThread();

    /**
     * Every thread of the timer alive now: the one above and those that run jobs (ours: the worker
     * pool; Kafka: its executor thread). Part 5 counts all of their CPU.
     */
    default List<Thread> allThreads() {
        return List.of(timerThread());
    }

    /** The tick in nanoseconds, or 0 for a timer without one. */
    long tickNanos();

    /**
     * Waits until everything scheduled or cancelled before this call has been placed in, or taken
     * out of, the timer's structure, whatever work that defers to the timer's thread.
     *
     * <p>It schedules a zero-delay marker job and waits for it to run, twice in a row. Every timer
     * here takes its hand-off queues in order (Netty: FIFO, 100,000 entries a tick; ours: the whole
     * inbox stack at once), so the first marker runs only once the timer has reached everything
     * handed over before it. That timer may have taken its cancellations just before the caller's
     * last ones arrived, though; the second marker is handed over after the first ran, so it is taken
     * in a later pass of the timer's thread, which first takes all those cancellations.
     */
    default void awaitSettled() throws InterruptedException {
        for (int marker = 0; marker < 2; marker++) {
            MarkerJob job = new MarkerJob();
            schedule(job, 0, TimeUnit.NANOSECONDS);
            if (!job.await(SETTLE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException(name() + " did not run a zero-delay marker job within "
                        + SETTLE_TIMEOUT_SECONDS + " s");
            }
        }
    }

    /** Stops the timer and discards its jobs; does not wait for far-future jobs. */
    @Override
    void close();
}
