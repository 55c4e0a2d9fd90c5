package dev.cim.client.core;

import java.util.Objects;

/**
 * News about one of the user's scheduled messages, from another terminal of theirs or from the
 * server (it was sent, or could not be).
 *
 * @param kind    what happened
 * @param message the message as it is now (for {@link Kind#CANCELLED}, {@link Kind#SENT} and
 *                {@link Kind#FAILED}, as it was)
 * @param reason  for {@link Kind#FAILED}, why it could not be sent; else empty
 */
public record ScheduledChange(Kind kind, ScheduledMessage message, String reason) {

    public enum Kind {
        SCHEDULED, EDITED, CANCELLED, SENT,
        /** Its time came and it could not be sent (the recipient's inbox was full, say): no longer scheduled. */
        FAILED
    }

    public ScheduledChange {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(reason, "reason");
    }

    /** A change with no reason attached. */
    public ScheduledChange(Kind kind, ScheduledMessage message) {
        this(kind, message, "");
    }
}
