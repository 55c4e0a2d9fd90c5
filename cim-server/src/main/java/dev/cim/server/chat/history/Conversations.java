package dev.cim.server.chat.history;

import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.UserNames;
import dev.cim.server.store.Conversation;
import dev.cim.server.store.GroupStore;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A conversation as a user names it ({@code @bob}, {@code #team}), checked: a valid name, and for a
 * group, one the user is a member of (a conversation one is not in has no history to read).
 */
final class Conversations {

    private static final Pattern POSITION = Pattern.compile("\\d{1,19}-\\d{1,20}");

    /** A conversation named, or why not. */
    record Named(Conversation conversation, String problem) {
    }

    private final GroupStore groups;

    Conversations(GroupStore groups) {
        this.groups = groups;
    }

    /** The conversation {@code user} means by {@code name}; blocks on the store for a group's membership. */
    Named named(String user, String name) {
        if (name == null || name.isEmpty()) {
            return new Named(null, "which conversation? (expected: @user or #group)");
        }
        if (ChatRules.isGroup(name)) {
            String group = name.substring(1);
            Optional<String> problem = ChatRules.groupProblem(group);
            if (problem.isPresent()) {
                return new Named(null, problem.get());
            }
            String canonical = UserNames.canonical(group);
            if (!groups.isMember(canonical, user)) {
                return new Named(null, "you are not a member of #" + canonical + " (or there is no such group)");
            }
            return new Named(Conversation.group(canonical), null);
        }
        String other = name.startsWith("@") ? name.substring(1) : name;
        Optional<String> problem = UserNames.problem(other);
        if (problem.isPresent()) {
            return new Named(null, problem.get() + " (expected: @user or #group)");
        }
        return new Named(Conversation.between(user, UserNames.canonical(other)), null);
    }

    /** True when {@code position} is empty or has the form of a position ({@code <millis>-<sequence>}). */
    static boolean isPosition(String position) {
        return position.isEmpty() || POSITION.matcher(position).matches();
    }
}
