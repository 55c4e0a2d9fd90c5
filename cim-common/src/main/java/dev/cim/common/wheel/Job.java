package dev.cim.common.wheel;

import java.util.Objects;

/**
 * A unit of delayed work that can say what it is. Any {@link Runnable} can be scheduled; a
 * {@code Job} adds a {@link #description()} that shows in {@link DelayScheduler#pendingJobs()}
 * listings and in the log line written when the job throws.
 */
@FunctionalInterface
public interface Job extends Runnable {

    /** A short human-readable account of the job, e.g. {@code "to bob: see you at 5"}. */
    default String description() {
        return toString();
    }

    /**
     * A job that runs {@code action} and describes itself as {@code description}.
     *
     * @throws NullPointerException if either argument is null
     */
    static Job of(String description, Runnable action) {
        return new DescribedJob(description, action);
    }

    /** The description of any runnable: a {@link Job}'s own, otherwise its {@code toString()}. */
    static String describe(Runnable job) {
        return job instanceof Job described ? described.description() : String.valueOf(job);
    }
}

/** The {@link Job#of} pair. */
record DescribedJob(String description, Runnable action) implements Job {

    DescribedJob {
        Objects.requireNonNull(description, "description (expected: a short text naming the job)");
        Objects.requireNonNull(action, "action (expected: the Runnable to run)");
    }

    @Override
    public void run() {
        action.run();
    }

    @Override
    public String toString() {
        return description;
    }
}
