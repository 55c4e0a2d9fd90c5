package dev.cim.server.chat.session;

/**
 * What one session may hold on the server, so that no client can make it hold more.
 *
 * @param windowMessages messages written to a session and not yet acknowledged, at most; past it (or
 *                       past {@code windowBytes}) the session is closed and the rest waits in the inbox
 * @param windowBytes    bytes of those messages, at most
 * @param heldMessages   live messages held while a session reads its inbox, past which they are stored
 *                       behind what it reads
 * @param pageSize       inbox messages read at once
 */
public record SessionLimits(int windowMessages, long windowBytes, int heldMessages, int pageSize) {

    public SessionLimits {
        atLeastOne(windowMessages, "window messages");
        atLeastOne(windowBytes, "window bytes");
        atLeastOne(heldMessages, "held messages");
        atLeastOne(pageSize, "page size");
    }

    private static void atLeastOne(long value, String name) {
        if (value < 1) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= 1)");
        }
    }
}
