package dev.cim.client.delay;

import dev.cim.client.command.Command.Recipient;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A chat message on its way out.
 *
 * @param to where it goes
 * @param text what it says
 * @param delay for a delayed message, the delay asked; null for one sent at once
 * @param dueAt for a delayed message, when it was due; null for one sent at once
 */
public record OutgoingChat(Recipient to, String text, Duration delay, Instant dueAt) {

    public OutgoingChat {
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(text, "text");
        if ((delay == null) != (dueAt == null)) {
            throw new IllegalArgumentException("delay and dueAt go together (expected: both or neither)");
        }
    }

    public static OutgoingChat now(Recipient to, String text) {
        return new OutgoingChat(to, text, null, null);
    }

    public boolean isDelayed() {
        return delay != null;
    }
}
