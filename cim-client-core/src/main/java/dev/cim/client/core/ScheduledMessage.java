package dev.cim.client.core;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;

/**
 * A message the server holds to send at a time.
 *
 * @param id        its id; the message keeps it when sent
 * @param number    a short number for people, unique per user ({@code :cancel 7})
 * @param recipient who it is for
 * @param text      what it says
 * @param dueAt     when it will be sent
 * @param requested the delay asked for when it was scheduled or last moved ({@code dueAt} less it is
 *                  when that was, by the sender's clock)
 * @param when      how its time was set: at a time, when online (then {@code dueAt} is its deadline,
 *                  or {@code Instant.ofEpochMilli(Long.MAX_VALUE)} without one), every so often (then
 *                  {@code dueAt} is its next occurrence)
 * @param occurrence of a recurring message, the number of the occurrence due at {@code dueAt}; else 0
 * @param recipientZone the time zone the recipient set, when the server listed it
 */
public record ScheduledMessage(String id, long number, Recipient recipient, String text, Instant dueAt,
        Duration requested, When when, int occurrence, Optional<ZoneId> recipientZone) {

    public ScheduledMessage {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(recipient, "recipient");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(dueAt, "dueAt");
        Objects.requireNonNull(requested, "requested");
        Objects.requireNonNull(when, "when");
        Objects.requireNonNull(recipientZone, "recipientZone");
    }

    /** A message scheduled once, at {@code dueAt}. */
    public ScheduledMessage(String id, long number, Recipient recipient, String text, Instant dueAt,
            Duration requested) {
        this(id, number, recipient, text, dueAt, requested, When.at(dueAt), 0, Optional.empty());
    }

    /** True when it waits for its recipient to log in rather than for a time. */
    public boolean isWhenOnline() {
        return when.isOnline();
    }

    /** True for a recurring message. */
    public boolean isRecurring() {
        return !when.every().isEmpty();
    }
}
