package dev.cim.client.core;

import java.util.List;

/**
 * What a change to a group did.
 *
 * @param group   the group as it is now (with no members when the change ended it)
 * @param refused the users named who were not added, each with why (one line each)
 */
public record GroupResult(GroupInfo group, List<String> refused) {

    public GroupResult {
        refused = List.copyOf(refused);
    }
}
