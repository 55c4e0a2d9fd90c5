package dev.cim.client.core;

import java.time.Duration;
import java.util.List;

/**
 * What the server said when it accepted a login.
 *
 * @param nodeId            the server node that holds the connection
 * @param accountCreated    true when this login created the account
 * @param heartbeat         how often the client pings when idle
 * @param maxTextLength     the most characters the server accepts in a message
 * @param maxScheduleDelay  the longest delay the server accepts for a scheduled message
 * @param nodes             the server's live nodes, for failing over
 */
public record LoginInfo(String nodeId, boolean accountCreated, Duration heartbeat, int maxTextLength,
        Duration maxScheduleDelay, List<ServerAddress> nodes) {
}
