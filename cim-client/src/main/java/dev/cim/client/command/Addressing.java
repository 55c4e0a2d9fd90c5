package dev.cim.client.command;

import dev.cim.client.core.Recipient;
import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.UserNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Who a command is about and what a message says: {@code @user}, {@code #group} and a message's
 * text, checked, each refusal a {@link CommandException} with a one-line message ending in the
 * command's usage.
 */
final class Addressing {

    /** A message's recipient and text, checked. */
    record Addressed(Recipient to, String text) {
    }

    private final int maxTextLength;

    /** @param maxTextLength the most characters in a message's text (at least 1) */
    Addressing(int maxTextLength) {
        if (maxTextLength < 1) {
            throw new IllegalArgumentException("maxTextLength (expected: >= 1): " + maxTextLength);
        }
        this.maxTextLength = maxTextLength;
    }

    /** Splits an optional leading {@code @user} or {@code #group} from the text and checks both. */
    Addressed addressed(String input, String usage) throws CommandException {
        Recipient to = Recipient.EVERYONE;
        String text = input;
        if (input.startsWith("#")) {
            String[] groupAndText = input.split("\\s+", 2);
            to = Recipient.group(group(groupAndText[0], usage));
            text = groupAndText.length > 1 ? groupAndText[1].strip() : "";
        } else if (input.startsWith("@")) {
            String[] userAndText = input.substring(1).split("\\s+", 2);
            String name = userAndText[0];
            if (!ChatRules.EVERYONE.equals(name)) { // "@everyone hi" is a plain broadcast
                Optional<String> problem = UserNames.problem(name);
                if (problem.isPresent()) {
                    throw new CommandException("'@" + name + "': " + problem.get() + "; " + usage);
                }
                to = Recipient.user(name);
            }
            text = userAndText.length > 1 ? userAndText[1].strip() : "";
        }
        return new Addressed(to, text(text, usage));
    }

    /** {@code text}, if it is not blank and not too long. */
    String text(String text, String usage) throws CommandException {
        if (text.isBlank()) {
            throw new CommandException("the text is missing; " + usage);
        }
        if (text.length() > maxTextLength) {
            throw new CommandException("the message is " + text.length() + " characters long; the maximum is "
                    + maxTextLength + " (cim.client.max-message-length)");
        }
        return text;
    }

    /** A group's name, written {@code #name}; returned without its {@code #}, in canonical form. */
    static String group(String word, String usage) throws CommandException {
        if (!word.startsWith("#")) {
            throw new CommandException("'" + word + "' is not a group (expected: #name); " + usage);
        }
        Optional<String> problem = ChatRules.groupProblem(word.substring(1));
        if (problem.isPresent()) {
            throw new CommandException(problem.get() + "; " + usage);
        }
        return UserNames.canonical(word.substring(1));
    }

    /** User names, each with or without its {@code @}, checked, in canonical form. */
    static List<String> users(List<String> words, String usage) throws CommandException {
        List<String> users = new ArrayList<>(words.size());
        for (String word : words) {
            String name = word.startsWith("@") ? word.substring(1) : word;
            Optional<String> problem = UserNames.problem(name);
            if (problem.isPresent()) {
                throw new CommandException("'" + word + "': " + problem.get() + "; " + usage);
            }
            users.add(UserNames.canonical(name));
        }
        return users;
    }

    /** {@code @user} or {@code #group}, checked, in canonical form. */
    static String conversation(String word, String usage) throws CommandException {
        if (word.startsWith("#")) {
            return "#" + group(word, usage);
        }
        if (!word.startsWith("@")) {
            throw new CommandException("'" + word + "' is not a conversation (expected: @user or #group); " + usage);
        }
        return "@" + users(List.of(word), usage).get(0);
    }
}
