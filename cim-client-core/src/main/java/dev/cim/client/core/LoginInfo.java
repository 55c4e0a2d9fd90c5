package dev.cim.client.core;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;

/**
 * What the server said when it accepted a login.
 *
 * @param nodeId            the server node that holds the connection
 * @param accountCreated    true when this login created the account
 * @param heartbeat         how often the client pings when idle
 * @param maxTextLength     the most characters the server accepts in a message
 * @param maxScheduleDelay  the longest delay the server accepts for a scheduled message
 * @param nodes             the server's live nodes, for failing over
 * @param maxScheduled      the most scheduled messages the user may hold (0 when the server did not say)
 * @param messagesPerSecond the long-run rate of the user's messages the server allows, and
 *                          {@code messageBurst} the most at once above it (0 when it did not say)
 * @param zone              the time zone set on the account, if any
 */
public record LoginInfo(String nodeId, boolean accountCreated, Duration heartbeat, int maxTextLength,
        Duration maxScheduleDelay, List<ServerAddress> nodes, int maxScheduled, int messagesPerSecond,
        int messageBurst, Optional<ZoneId> zone) {
}
