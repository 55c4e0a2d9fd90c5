package dev.cim.client.core;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of the record the server keeps of the user's scheduled messages whose time came
 * ({@link CimClient#sent}).
 *
 * @param message what was due: for a recurring message, that occurrence (its due time and number)
 * @param outcome {@link ScheduledChange.Kind#SENT}, {@link ScheduledChange.Kind#FAILED} or
 *                {@link ScheduledChange.Kind#DROPPED}
 * @param at      when it was sent, failed or was dropped; {@code at} less the message's due time is
 *                how late it was
 * @param reason  why it failed or was dropped, or a note on a sent one; else empty
 */
public record SentEntry(ScheduledMessage message, ScheduledChange.Kind outcome, Instant at, String reason) {

    public SentEntry {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(reason, "reason");
    }
}
