package dev.cim.server.chat;

import java.time.Duration;

/**
 * What a login result tells the client about this server, so that it can keep to it before asking.
 *
 * @param heartbeat     how often the client should ping
 * @param maxTextLength the most characters in a message
 * @param maxDelay      the longest delay of a scheduled message
 * @param maxScheduled  the most scheduled messages a user may hold
 * @param messagesPerSecond the long-run rate of a user's messages, and the burst above it
 */
public record LoginTerms(Duration heartbeat, int maxTextLength, Duration maxDelay, int maxScheduled,
        int messagesPerSecond, int messageBurst) {
}
