package dev.cim.common.protocol;

import java.util.Optional;

/**
 * What a chat message may be, shared so that a client can check a message before the server refuses
 * it: who it may go to and how long its text may be.
 */
public final class ChatRules {

    /** The recipient of a message to every online user. */
    public static final String EVERYONE = "everyone";

    /** The longest text the protocol allows, in chars; a server may set a lower limit. */
    public static final int MAX_TEXT_LENGTH = 4000;

    private ChatRules() {
    }

    /** Why {@code recipient} cannot receive a message, or empty when it can ({@link #EVERYONE} or a user name). */
    public static Optional<String> recipientProblem(String recipient) {
        if (recipient != null && EVERYONE.equals(UserNames.canonical(recipient))) {
            return Optional.empty();
        }
        return UserNames.problem(recipient)
                .map(problem -> "recipient: " + problem + " (or '" + EVERYONE + "' for everyone)");
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
