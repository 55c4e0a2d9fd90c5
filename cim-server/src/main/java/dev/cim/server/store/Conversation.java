package dev.cim.server.store;

import dev.cim.common.protocol.ChatRules;

/**
 * One conversation, whose messages are kept in one log: the private one between two users, or a
 * group's. Its {@link #id()} is {@code #<group>} or the two user names, sorted, joined by {@code |}
 * (which no name may hold), so that both users name the same conversation.
 *
 * @param id the conversation's id
 */
public record Conversation(String id) {

    private static final char PAIR = '|';

    public Conversation {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("conversation id: empty (expected: #<group> or <user>|<user>)");
        }
    }

    /** The private conversation of {@code a} and {@code b} (canonical names), either way round. */
    public static Conversation between(String a, String b) {
        return new Conversation(a.compareTo(b) <= 0 ? a + PAIR + b : b + PAIR + a);
    }

    /** The conversation of group {@code name} (without its '#'). */
    public static Conversation group(String name) {
        return new Conversation(ChatRules.GROUP_PREFIX + name);
    }

    /** The conversation {@code chat} belongs to, or null for a message to everyone (kept nowhere). */
    public static Conversation of(dev.cim.common.protocol.proto.Chat chat) {
        String to = chat.getRecipient();
        if (ChatRules.EVERYONE.equals(to)) {
            return null;
        }
        if (ChatRules.isGroup(to)) {
            return new Conversation(to);
        }
        return between(chat.getSender(), to);
    }

    public boolean isGroup() {
        return id.charAt(0) == ChatRules.GROUP_PREFIX;
    }

    /** The group's name, without its '#'; only for a group's conversation. */
    public String groupName() {
        if (!isGroup()) {
            throw new IllegalStateException(id + " is not a group's conversation (expected: #<group>)");
        }
        return id.substring(1);
    }

    /** The other user of a private conversation of {@code user}. */
    public String otherThan(String user) {
        int bar = id.indexOf(PAIR);
        String first = id.substring(0, bar);
        return first.equals(user) ? id.substring(bar + 1) : first;
    }

    /** How {@code user} names it: {@code #team}, or {@code @bob}. */
    public String nameFor(String user) {
        return isGroup() ? id : "@" + otherThan(user);
    }
}
