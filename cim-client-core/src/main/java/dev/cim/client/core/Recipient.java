package dev.cim.client.core;

import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.UserNames;

/**
 * Where a message goes: every user online, one user (on every terminal they are logged in from), or
 * the members of a group.
 *
 * @param name a user name, {@code #} and a group's name, or {@value ChatRules#EVERYONE}
 */
public record Recipient(String name) {

    /** Every user online but the sender. */
    public static final Recipient EVERYONE = new Recipient(ChatRules.EVERYONE);

    /**
     * @throws IllegalArgumentException if {@code name} is neither a valid user name, {@code #} and a
     *         valid group name, nor {@value ChatRules#EVERYONE}
     */
    public Recipient {
        if (name == null) {
            throw new IllegalArgumentException("name: null (expected: a user name or '" + ChatRules.EVERYONE + "')");
        }
        ChatRules.recipientProblem(name).ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
        name = UserNames.canonical(name); // as the server knows the user
    }

    /** One user, on all of their terminals. */
    public static Recipient user(String name) {
        if (name != null && ChatRules.EVERYONE.equals(UserNames.canonical(name))) {
            return EVERYONE;
        }
        UserNames.problem(name).ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
        return new Recipient(name);
    }

    /** The members of group {@code name} (with or without its {@code #}). */
    public static Recipient group(String name) {
        String bare = name != null && name.startsWith("#") ? name.substring(1) : name;
        ChatRules.groupProblem(bare).ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
        return new Recipient("#" + bare);
    }

    public boolean isGroup() {
        return ChatRules.isGroup(name);
    }

    public boolean isEveryone() {
        return ChatRules.EVERYONE.equals(name);
    }

    @Override
    public String toString() {
        return isEveryone() ? "everyone" : isGroup() ? name : "@" + name;
    }
}
