package dev.cim.common.wheel;

import java.time.Instant;
import java.util.Objects;

/**
 * A snapshot line about a job that has not run: what {@link DelayScheduler#pendingJobs()} lists and
 * what a stop reports as discarded.
 *
 * @param id the job's {@link ScheduledJob#id()}
 * @param dueAt when it was due to run
 * @param description its {@link Job#description()}
 */
public record PendingJob(long id, Instant dueAt, String description) {

    public PendingJob {
        Objects.requireNonNull(dueAt, "dueAt");
        Objects.requireNonNull(description, "description");
    }
}
