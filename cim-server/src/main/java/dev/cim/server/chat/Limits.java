package dev.cim.server.chat;

import dev.cim.server.chat.session.SessionLimits;
import java.time.Duration;

/**
 * What one session or origin may hold on the server, so that no client can make it hold more.
 *
 * @param windowMessages messages written to a session and not yet acknowledged, at most; past it
 *                       (or past {@code windowBytes}) the session is closed and the rest waits in the
 *                       inbox
 * @param windowBytes    bytes of those messages, at most
 * @param heldMessages   live messages held while a session reads its inbox, past which they are
 *                       stored behind what it reads
 * @param pageSize       inbox messages read at once
 * @param pendingPerOrigin messages of one client routed and not resolved, past which the server
 *                       stops reading that client until some are
 * @param relayTimeout   how long a message relayed to another node may wait for that node's answer
 *                       before it is stored in the recipient's inbox instead
 * @param maxTextLength  the most characters in a message
 * @param messagesPerSecond messages one user may send or schedule per second on this node, on average
 * @param messageBurst   messages one user may send at once above that rate
 */
public record Limits(int windowMessages, long windowBytes, int heldMessages, int pageSize, int pendingPerOrigin,
        Duration relayTimeout, int maxTextLength, int messagesPerSecond, int messageBurst) {

    public Limits {
        new SessionLimits(windowMessages, windowBytes, heldMessages, pageSize); // checks its own
        positive(pendingPerOrigin, "pending per origin");
        positive(maxTextLength, "max text length");
        positive(messagesPerSecond, "messages per second");
        positive(messageBurst, "message burst");
        if (relayTimeout.isNegative() || relayTimeout.isZero()) {
            throw new IllegalArgumentException("relay timeout: " + relayTimeout + " (expected: > 0)");
        }
    }

    /** What one session may hold. */
    public SessionLimits session() {
        return new SessionLimits(windowMessages, windowBytes, heldMessages, pageSize);
    }

    private static void positive(long value, String name) {
        if (value < 1) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= 1)");
        }
    }
}
