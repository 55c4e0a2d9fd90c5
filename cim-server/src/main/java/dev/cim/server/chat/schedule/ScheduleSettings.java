package dev.cim.server.chat.schedule;

import dev.cim.server.store.ScheduledStore;
import java.time.Duration;
import java.util.Objects;

/**
 * How a node holds and sends scheduled messages.
 *
 * @param maxDelay     the longest delay accepted
 * @param maxPerUser   the most scheduled messages one user may have
 * @param window       how far ahead the server holds jobs on its wheel (later ones wait in the store only)
 * @param scanInterval how often the store is read for messages coming into the window
 * @param releaseGrace how long the server waits, once a message is due, for its online sender's client
 *                     to release it
 * @param lease        how long a claim lasts before another node may send the message
 * @param record       how much of each user's record of messages done with is kept
 */
public record ScheduleSettings(Duration maxDelay, int maxPerUser, Duration window, Duration scanInterval,
        Duration releaseGrace, Duration lease, ScheduledStore.Keep record) {

    public ScheduleSettings {
        positive(maxDelay, "max delay");
        positive(window, "window");
        positive(scanInterval, "scan interval");
        positive(lease, "lease");
        Objects.requireNonNull(record, "record");
        if (releaseGrace.isNegative()) {
            throw new IllegalArgumentException("release grace: " + releaseGrace + " (expected: >= 0)");
        }
        if (maxPerUser < 1) {
            throw new IllegalArgumentException("max per user: " + maxPerUser + " (expected: >= 1)");
        }
    }

    private static void positive(Duration value, String name) {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
        }
    }
}
