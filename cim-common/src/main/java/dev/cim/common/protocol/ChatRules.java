package dev.cim.common.protocol;

import java.util.Optional;

/**
 * What a chat message may be, shared so that a client can check a message before the server refuses
 * it: who it may go to (a user, a group as {@code #name}, or {@link #EVERYONE}) and how long its text
 * may be. A group's name follows the rules of user names ({@link UserNames}).
 */
public final class ChatRules {

    /** The recipient of a message to every online user. */
    public static final String EVERYONE = "everyone";

    /** What a recipient begins with when it is a group: {@code #team}. */
    public static final char GROUP_PREFIX = '#';

    /** The longest text the protocol allows, in chars; a server may set a lower limit. */
    public static final int MAX_TEXT_LENGTH = 4000;

    private ChatRules() {
    }

    /**
     * Why {@code recipient} cannot receive a message, or empty when it can ({@link #EVERYONE}, a user
     * name, or {@code #} and a group's name).
     */
    public static Optional<String> recipientProblem(String recipient) {
        if (recipient != null && EVERYONE.equals(UserNames.canonical(recipient))) {
            return Optional.empty();
        }
        if (isGroup(recipient)) {
            return groupProblem(recipient.substring(1)).map(problem -> "recipient: " + problem);
        }
        return UserNames.problem(recipient)
                .map(problem -> "recipient: " + problem + " (or #<group>, or '" + EVERYONE + "' for everyone)");
    }

    /** True when {@code recipient} names a group ({@code #team}). */
    public static boolean isGroup(String recipient) {
        return recipient != null && !recipient.isEmpty() && recipient.charAt(0) == GROUP_PREFIX;
    }

    /** Why {@code name} (without its '#') is not a valid group name, or empty when it is: a user name's rules. */
    public static Optional<String> groupProblem(String name) {
        if (name == null || name.isEmpty()) {
            return Optional.of("a group name is required (#name)");
        }
        return UserNames.problem(name).map(problem -> "invalid group name #" + name
                + " (a group's name follows a user name's rules: " + problem + ")");
    }

    /** Why {@code text} cannot be sent, or empty when it can: not blank, at most {@code maxLength} chars. */
    public static Optional<String> textProblem(String text, int maxLength) {
        if (text == null || text.isBlank()) {
            return Optional.of("the text is empty");
        }
        if (text.length() > maxLength) {
            return Optional.of("the text has " + text.length() + " characters (expected: at most " + maxLength + ")");
        }
        return Optional.empty();
    }
}
