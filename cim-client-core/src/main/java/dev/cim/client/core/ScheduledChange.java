package dev.cim.client.core;

import java.util.Objects;

/**
 * News about one of the user's scheduled messages, from another terminal of theirs or from the
 * server (it was sent).
 *
 * @param kind    what happened
 * @param message the message as it is now (for {@link Kind#CANCELLED} and {@link Kind#SENT}, as it was)
 */
public record ScheduledChange(Kind kind, ScheduledMessage message) {

    public enum Kind { SCHEDULED, EDITED, CANCELLED, SENT }

    public ScheduledChange {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
    }
}
