package dev.cim.client.core;

import dev.cim.common.protocol.ChatRules;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A chat message received.
 *
 * @param id        the sender's id for it, {@code "<origin>-<sequence>"}: unique per sender
 * @param sender    who sent it
 * @param recipient the user it was for (this client's user, or the other party of a message this
 *                  user sent from another terminal), {@code #group}, or {@value ChatRules#EVERYONE}
 * @param text      what it says, exactly as sent: render it with care (it may hold control characters)
 * @param sentAt    when the server accepted it (for a scheduled message: when it was sent)
 * @param delay     for a scheduled message, how it was scheduled; {@code null} otherwise
 */
public record ChatMessage(String id, String sender, String recipient, String text, Instant sentAt, Delay delay) {

    /**
     * How a scheduled message was scheduled.
     *
     * @param requested     the delay asked for
     * @param dueAt         when it was due
     * @param firedByServer true when the server sent it on the sender's behalf (their client was not
     *                      there at the time), false when the sender's client did
     * @param occurrence    of a recurring message, which occurrence (1 for the first); else 0
     * @param missed        of a recurring message, occurrences before this one that were not sent
     *                      (the server was down at their time)
     * @param whenOnline    true when it waited for this user to log in
     */
    public record Delay(Duration requested, Instant dueAt, boolean firedByServer, int occurrence, int missed,
            boolean whenOnline) {
        public Delay {
            Objects.requireNonNull(requested, "requested");
            Objects.requireNonNull(dueAt, "dueAt");
        }

        /** A message scheduled once, at a time. */
        public Delay(Duration requested, Instant dueAt, boolean firedByServer) {
            this(requested, dueAt, firedByServer, 0, 0, false);
        }
    }

    public ChatMessage {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(recipient, "recipient");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(sentAt, "sentAt");
    }

    /** True for a message to everyone online. */
    public boolean isBroadcast() {
        return ChatRules.EVERYONE.equals(recipient);
    }

    /** True for a message to a group. */
    public boolean isToGroup() {
        return ChatRules.isGroup(recipient);
    }

    /** True for a scheduled message. */
    public boolean isDelayed() {
        return delay != null;
    }
}
