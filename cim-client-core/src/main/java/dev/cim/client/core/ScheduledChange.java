package dev.cim.client.core;

import java.util.Objects;
import java.util.Optional;

/**
 * News about one of the user's scheduled messages, from another terminal of theirs or from the
 * server (it was sent, or could not be).
 *
 * @param kind    what happened
 * @param message the message as it is now (for {@link Kind#CANCELLED}, {@link Kind#SENT} and
 *                {@link Kind#FAILED}, as it was)
 * @param reason  for {@link Kind#FAILED} and {@link Kind#DROPPED}, why it was not sent; for
 *                {@link Kind#SENT}, a note when there is one (occurrences missed); else empty
 * @param next    of a recurring message, the series as it is now (its next occurrence); empty when
 *                it is not recurring or has ended
 */
public record ScheduledChange(Kind kind, ScheduledMessage message, String reason, Optional<ScheduledMessage> next) {

    public enum Kind {
        SCHEDULED, EDITED, CANCELLED, SENT,
        /** Its time came and it could not be sent (the recipient's inbox was full, say): no longer scheduled. */
        FAILED,
        /** Not sent by its own rule: later than its late policy allows, or its recipient did not log in in time. */
        DROPPED,
        /** The next occurrence of a recurring message was skipped. */
        SKIPPED
    }

    public ScheduledChange {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(next, "next");
    }

    /** A change of a message that does not recur. */
    public ScheduledChange(Kind kind, ScheduledMessage message, String reason) {
        this(kind, message, reason, Optional.empty());
    }

    /** A change with no reason attached. */
    public ScheduledChange(Kind kind, ScheduledMessage message) {
        this(kind, message, "");
    }
}
