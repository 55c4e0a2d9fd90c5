package dev.cim.client.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

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
 */
public record ScheduledMessage(String id, long number, Recipient recipient, String text, Instant dueAt,
        Duration requested) {

    public ScheduledMessage {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(recipient, "recipient");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(dueAt, "dueAt");
        Objects.requireNonNull(requested, "requested");
    }
}
