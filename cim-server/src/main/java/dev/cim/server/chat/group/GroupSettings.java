package dev.cim.server.chat.group;

import java.time.Duration;

/**
 * What groups may hold.
 *
 * @param maxMembers       the most members of a group
 * @param maxGroupsPerUser the most groups one user may be in
 * @param retention        how long a group's log keeps a message: its history, and how long a
 *                         member who is away may be away and still get it
 * @param maxLogEntries    the most messages a group's log keeps
 */
public record GroupSettings(int maxMembers, int maxGroupsPerUser, Duration retention, long maxLogEntries) {

    public GroupSettings {
        if (maxMembers < 2) {
            throw new IllegalArgumentException("max members: " + maxMembers + " (expected: >= 2)");
        }
        if (maxGroupsPerUser < 1) {
            throw new IllegalArgumentException("max groups per user: " + maxGroupsPerUser + " (expected: >= 1)");
        }
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("group log retention: " + retention + " (expected: > 0)");
        }
        if (maxLogEntries < 1) {
            throw new IllegalArgumentException("max log entries: " + maxLogEntries + " (expected: >= 1)");
        }
    }
}
