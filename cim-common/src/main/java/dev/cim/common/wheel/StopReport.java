package dev.cim.common.wheel;

import java.util.List;

/**
 * What a stop left undone.
 *
 * @param discarded jobs that never ran and now never will, in due order
 * @param stillRunning jobs that had started on a worker thread and had not finished when the stop
 *        returned; they are left to finish
 */
public record StopReport(List<PendingJob> discarded, long stillRunning) {

    public StopReport {
        discarded = List.copyOf(discarded);
        if (stillRunning < 0) {
            throw new IllegalArgumentException("stillRunning (expected: >= 0): " + stillRunning);
        }
    }

    /** A report of a stop that left nothing undone. */
    public static StopReport nothingLeft() {
        return new StopReport(List.of(), 0);
    }

    /** Whether every job accepted before the stop has run to its end. */
    public boolean isComplete() {
        return discarded.isEmpty() && stillRunning == 0;
    }
}
