package dev.cim.server.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Counters of recent attempts by a subject (failed logins of an account or from an address,
 * accounts created from an address), shared by every node, each forgotten a while after its last
 * attempt.
 */
public interface AttemptCounters {

    /** How many attempts, and when the last one was. */
    record Count(long attempts, Instant last) {
        public static final Count NONE = new Count(0, Instant.EPOCH);
    }

    /** The count of {@code subject}: {@link Count#NONE} when it has none, or they were forgotten. */
    Count get(String subject);

    /** The counts of {@code subjects}, in order, as {@link #get} gives each; a store asks for them together. */
    default List<Count> get(List<String> subjects) {
        return subjects.stream().map(this::get).toList();
    }

    /** Adds one attempt at {@code now}; the count is forgotten {@code keep} after its last attempt. */
    Count add(String subject, Instant now, Duration keep);

    /** Forgets the count of {@code subject}. */
    void clear(String subject);
}
