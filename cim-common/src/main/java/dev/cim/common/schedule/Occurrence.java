package dev.cim.common.schedule;

import java.time.Instant;
import java.util.Objects;

/**
 * One occurrence of a {@link Series}: its number and when it is due.
 *
 * @param index the occurrence's number in its series, from 1, counting those skipped after an
 *        outage ({@link Series#latestDue})
 * @param at when it is due
 */
public record Occurrence(int index, Instant at) {

    /**
     * @throws IllegalArgumentException if {@code index} is not positive
     * @throws NullPointerException if {@code at} is null
     */
    public Occurrence {
        if (index < 1) {
            throw new IllegalArgumentException("index " + index + " (expected: 1 or more)");
        }
        Objects.requireNonNull(at, "at (expected: the instant the occurrence is due)");
    }
}
