package dev.cim.client.command;

import dev.cim.client.command.Command.Recipient;
import dev.cim.common.protocol.ChatMessage;
import dev.cim.common.protocol.UserNames;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns a line typed at the console into a {@link Command}, or a {@link CommandException} whose
 * message is one line saying what was expected. Never throws anything else, whatever the line.
 *
 * <pre>
 *   hello all                 Send to everyone
 *   &#64;bob hi                   Send to bob
 *   :delay see you at 5 10m   Delay: text "see you at 5", sent in 10 minutes (the last word is the delay)
 *   :delay &#64;bob ping 1.5      Delay to bob, 1.5 s
 *   :delays  :cancel 7  :olu  :help  :q  :q!
 * </pre>
 */
public final class CommandParser {

    static final String DELAY_USAGE = "usage: :delay [@user] <text> <delay>, e.g. :delay see you soon 5m";
    static final String PRIVATE_USAGE = "usage: @user <text>, e.g. @bob hi";

    private final Duration maxDelay;
    private final int maxTextLength;

    /**
     * @param maxDelay the longest {@code :delay} accepted
     * @param maxTextLength the most characters in a message's text
     */
    public CommandParser(Duration maxDelay, int maxTextLength) {
        this.maxDelay = Objects.requireNonNull(maxDelay, "maxDelay");
        if (maxTextLength < 1) {
            throw new IllegalArgumentException("maxTextLength (expected: >= 1): " + maxTextLength);
        }
        this.maxTextLength = maxTextLength;
    }

    public Command parse(String line) throws CommandException {
        String input = line.strip();
        if (input.isEmpty()) {
            return new Command.Nothing();
        }
        if (!input.startsWith(":")) {
            return send(input);
        }
        String[] nameAndRest = input.split("\\s+", 2);
        String rest = nameAndRest.length > 1 ? nameAndRest[1] : "";
        return switch (nameAndRest[0]) {
            case ":delay" -> delay(rest);
            case ":delays" -> noArguments(":delays", rest, new Command.ListDelays());
            case ":cancel" -> cancel(rest);
            case ":olu" -> noArguments(":olu", rest, new Command.OnlineUsers());
            case ":help" -> noArguments(":help", rest, new Command.Help());
            case ":q" -> noArguments(":q", rest, new Command.Quit(false));
            case ":q!" -> noArguments(":q!", rest, new Command.Quit(true));
            default -> throw new CommandException("unknown command " + nameAndRest[0] + "; type :help for the list");
        };
    }

    private Command send(String input) throws CommandException {
        Addressed message = addressed(input, PRIVATE_USAGE);
        return new Command.Send(message.to(), message.text());
    }

    private Command delay(String rest) throws CommandException {
        int split = lastWhitespace(rest);
        if (rest.isEmpty() || split < 0) {
            throw new CommandException((rest.isEmpty() ? "the text and the delay are missing; " : "the delay is missing; ")
                    + DELAY_USAGE);
        }
        Duration delay = DelayParser.parse(rest.substring(split + 1));
        if (delay.isZero()) {
            throw new CommandException("the delay must be more than 0 (to send at once, type the text alone)");
        }
        if (delay.compareTo(maxDelay) > 0) {
            throw new CommandException("the delay " + DelayFormat.format(delay) + " is over the maximum of "
                    + DelayFormat.format(maxDelay) + " (cim.client.max-delay)");
        }
        Addressed message = addressed(rest.substring(0, split).strip(), DELAY_USAGE);
        return new Command.Delay(message.to(), message.text(), delay);
    }

    private record Addressed(Recipient to, String text) {
    }

    /** Splits an optional leading {@code @user} from the text and checks both. */
    private Addressed addressed(String input, String usage) throws CommandException {
        Recipient to = Recipient.EVERYONE;
        String text = input;
        if (input.startsWith("@")) {
            String[] userAndText = input.substring(1).split("\\s+", 2);
            String name = userAndText[0];
            if (!ChatMessage.EVERYONE.equals(name)) { // "@everyone hi" is a plain broadcast
                Optional<String> problem = UserNames.problem(name);
                if (problem.isPresent()) {
                    throw new CommandException("'@" + name + "': " + problem.get() + "; " + usage);
                }
                to = Recipient.user(name);
            }
            text = userAndText.length > 1 ? userAndText[1].strip() : "";
        }
        if (text.isEmpty()) {
            throw new CommandException("the text is missing; " + usage);
        }
        if (text.length() > maxTextLength) {
            throw new CommandException("the message is " + text.length() + " characters long; the maximum is "
                    + maxTextLength + " (cim.client.max-message-length)");
        }
        return new Addressed(to, text);
    }

    private static Command cancel(String rest) throws CommandException {
        if (rest.isEmpty()) {
            throw new CommandException("the id is missing; usage: :cancel <id> (ids are listed by :delays)");
        }
        try {
            long id = Long.parseLong(rest);
            if (id > 0) {
                return new Command.Cancel(id);
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new CommandException("'" + rest + "' is not an id; usage: :cancel <id> (ids are listed by :delays)");
    }

    private static Command noArguments(String name, String rest, Command command) throws CommandException {
        if (!rest.isEmpty()) {
            throw new CommandException(name + " takes no arguments, got '" + rest + "'");
        }
        return command;
    }

    private static int lastWhitespace(String text) {
        for (int i = text.length() - 1; i >= 0; i--) {
            if (Character.isWhitespace(text.charAt(i))) {
                return i;
            }
        }
        return -1;
    }
}
