package dev.cim.server.chat.group;

import dev.cim.server.store.Conversation;
import dev.cim.server.store.ConversationLog;
import dev.cim.server.store.GroupStore;
import dev.cim.server.store.LogPosition;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Members' cursors in their groups' logs, written behind the acknowledgements: an acknowledgement
 * moves the cursor here at once, and {@link #flush} (a second later, or at a stop) writes the cursors
 * that moved, one round trip per group. A server that dies loses at most that second of moves: the
 * member's next session reads those messages again, and their client drops the ids it has shown.
 * Sessions read a cursor through {@link #cursor}, which sees the moves not yet written. Thread-safe.
 */
final class GroupCursors {

    private static final Logger log = LoggerFactory.getLogger(GroupCursors.class);

    private final GroupStore store;
    private final ConversationLog logs;
    /**
     * Group to user to position, not yet written. A group's map is changed and taken only inside the
     * outer map's atomic steps on its key, so no move is lost between a take and a write.
     */
    private final ConcurrentHashMap<String, Map<String, String>> moved = new ConcurrentHashMap<>();

    GroupCursors(GroupStore store, ConversationLog logs) {
        this.store = store;
        this.logs = logs;
    }

    public String cursor(String group, String user) {
        String stored = store.cursor(group, user).orElse("");
        String[] here = new String[1];
        moved.computeIfPresent(group, (g, pending) -> {
            here[0] = pending.get(user);
            return pending;
        });
        return here[0] != null && LogPosition.compare(here[0], stored) > 0 ? here[0] : stored;
    }

    public List<ConversationLog.Entry> after(String group, String position, int count) {
        return logs.after(Conversation.group(group), position, count);
    }

    public void acknowledged(String group, String user, String position) {
        moved.compute(group, (g, pending) -> {
            Map<String, String> map = pending != null ? pending : new HashMap<>();
            map.merge(user, position, (was, now) -> LogPosition.compare(now, was) > 0 ? now : was);
            return map;
        });
    }

    /** Writes the cursors that moved; what fails to be written is kept for the next flush. */
    void flush() {
        for (String group : moved.keySet()) {
            Map<String, String> pending = moved.remove(group);
            if (pending == null || pending.isEmpty()) {
                continue;
            }
            try {
                store.advance(group, pending);
            } catch (RuntimeException e) {
                log.warn("Could not write {} cursors of #{}; trying again: {}", pending.size(), group, e.toString());
                pending.forEach((user, position) -> acknowledged(group, user, position));
            }
        }
    }
}
