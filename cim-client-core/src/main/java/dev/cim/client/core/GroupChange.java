package dev.cim.client.core;

import java.util.List;

/**
 * A change to a group this user is (or was) in, made by another user or on another terminal.
 *
 * @param kind  what happened
 * @param group the group as it is now
 * @param users who joined, left or was removed (all the members, when it was created)
 * @param by    who did it
 */
public record GroupChange(Kind kind, GroupInfo group, List<String> users, String by) {

    public enum Kind { CREATED, JOINED, LEFT, REMOVED }

    public GroupChange {
        users = List.copyOf(users);
    }
}
