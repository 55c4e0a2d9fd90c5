package dev.cim.client.command;

import dev.cim.common.schedule.DelayFormat;
import dev.cim.common.schedule.DelayParser;

import dev.cim.client.core.Recipient;
import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.UserNames;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns a line typed at the console into a {@link Command}, or a {@link CommandException} whose
 * message is one line saying what was expected. Never throws anything else, whatever the line.
 *
 * <pre>
 *   hello all                     Send to everyone
 *   &#64;bob hi                       Send to bob
 *   ::)                           Send ":)" (a leading "::" sends a text that starts with ':')
 *   :delay see you at 5 10m       Delay: "see you at 5" in 10 minutes (the last word is the delay)
 *   :delay &#64;bob ping 1.5          Delay to bob, 1.5 s
 *   :at 17:30 &#64;bob call me        At: today at 17:30 (also: tomorrow 9:00, 2027-01-05 09:00)
 *   :delays  :cancel 7  :edit 7 new text  :move 7 1h  :move 7 tomorrow 9:00
 *   #team hi                      Send to the members of #team
 *   :create [open] #team bob      CreateGroup; :invite #team carol  :join #team  :leave #team
 *   :kick #team carol  :groups  :members #team
 *   :history @bob 50              History: the last 50 (a repeat pages back); :history #team
 *   :search lunch [#team]         Search
 *   :olu  :help  :q  :q!
 * </pre>
 */
public final class CommandParser {

    static final String DELAY_USAGE = "usage: :delay [@user|#group] <text> <delay>, e.g. :delay see you soon 5m";
    static final String AT_USAGE = "usage: :at <time> [@user|#group] <text>, e.g. :at 17:30 @bob call me";
    static final String PRIVATE_USAGE = "usage: @user <text> or #group <text>, e.g. @bob hi";
    static final String NUMBER_HINT = "numbers are listed by :delays";
    static final int DEFAULT_HISTORY = 20;
    static final int MAX_HISTORY = 200;

    private final Duration maxDelay;
    private final int maxTextLength;
    private final Clock clock;

    /**
     * @param maxDelay      the longest delay accepted (the server may accept less, and says so)
     * @param maxTextLength the most characters in a message's text
     * @param clock         now, in the user's time zone (for {@code :at})
     */
    public CommandParser(Duration maxDelay, int maxTextLength, Clock clock) {
        this.maxDelay = Objects.requireNonNull(maxDelay, "maxDelay");
        if (maxTextLength < 1) {
            throw new IllegalArgumentException("maxTextLength (expected: >= 1): " + maxTextLength);
        }
        this.maxTextLength = maxTextLength;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Command parse(String line) throws CommandException {
        String input = line.strip();
        if (input.isEmpty()) {
            return new Command.Nothing();
        }
        if (input.startsWith("::")) {
            return new Command.Send(Recipient.EVERYONE, text(input.substring(1), PRIVATE_USAGE));
        }
        if (!input.startsWith(":")) {
            Addressed message = addressed(input, PRIVATE_USAGE);
            return new Command.Send(message.to(), message.text());
        }
        String[] nameAndRest = input.split("\\s+", 2);
        String rest = nameAndRest.length > 1 ? nameAndRest[1] : "";
        return switch (nameAndRest[0]) {
            case ":delay" -> delay(rest);
            case ":at" -> at(rest);
            case ":delays" -> noArguments(":delays", rest, new Command.ListDelays());
            case ":cancel" -> new Command.Cancel(number(":cancel", rest, ":cancel <number>"));
            case ":edit" -> edit(rest);
            case ":move" -> move(rest);
            case ":create" -> create(rest);
            case ":invite" -> groupAndUsers(":invite", rest, true, Command.Invite::new);
            case ":kick" -> groupAndUsers(":kick", rest, true, Command.Kick::new);
            case ":join" -> new Command.Join(groupOnly(":join", rest));
            case ":leave" -> new Command.Leave(groupOnly(":leave", rest));
            case ":members" -> new Command.Members(groupOnly(":members", rest));
            case ":groups" -> noArguments(":groups", rest, new Command.ListGroups());
            case ":history" -> history(rest);
            case ":search" -> search(rest);
            case ":olu" -> noArguments(":olu", rest, new Command.OnlineUsers());
            case ":help" -> noArguments(":help", rest, new Command.Help());
            case ":q" -> noArguments(":q", rest, new Command.Quit(false));
            case ":q!" -> noArguments(":q!", rest, new Command.Quit(true));
            default -> throw new CommandException("unknown command " + nameAndRest[0]
                    + "; type :help for the list (to send a text that starts with ':', begin it with '::')");
        };
    }

    private Command delay(String rest) throws CommandException {
        int split = lastWhitespace(rest);
        if (rest.isEmpty() || split < 0) {
            throw new CommandException((rest.isEmpty() ? "the text and the delay are missing; " : "the delay is missing; ")
                    + DELAY_USAGE);
        }
        Duration delay = delayOf(rest.substring(split + 1));
        Addressed message = addressed(rest.substring(0, split).strip(), DELAY_USAGE);
        return new Command.Delay(message.to(), message.text(), delay);
    }

    private Duration delayOf(String token) throws CommandException {
        Duration delay;
        try {
            delay = DelayParser.parse(token);
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage());
        }
        if (delay.isZero()) {
            throw new CommandException("the delay must be more than 0 (to send at once, type the text alone)");
        }
        if (delay.compareTo(maxDelay) > 0) {
            throw new CommandException("the delay " + DelayFormat.format(delay) + " is over the maximum of "
                    + DelayFormat.format(maxDelay) + " (cim.client.max-delay)");
        }
        return delay;
    }

    private Command at(String rest) throws CommandException {
        List<String> words = words(rest);
        if (words.isEmpty()) {
            throw new CommandException("the time and the text are missing; " + AT_USAGE);
        }
        TimeParser.Parsed time = TimeParser.parse(words, ZonedDateTime.now(clock));
        checkHorizon(time.when());
        String text = String.join(" ", words.subList(time.words(), words.size()));
        if (text.isEmpty()) {
            throw new CommandException("the text is missing; " + AT_USAGE);
        }
        // Keep the text as typed, spaces and all: cut the time's words off the front of the line.
        String typed = rest.strip();
        for (int i = 0; i < time.words(); i++) {
            typed = typed.substring(words.get(i).length()).stripLeading();
        }
        Addressed message = addressed(typed, AT_USAGE);
        return new Command.At(message.to(), message.text(), time.when());
    }

    private void checkHorizon(ZonedDateTime when) throws CommandException {
        Duration ahead = Duration.between(clock.instant(), when.toInstant());
        if (ahead.compareTo(maxDelay) > 0) {
            throw new CommandException(when.toLocalDate() + " is more than " + DelayFormat.format(maxDelay)
                    + " ahead, the maximum (cim.client.max-delay)");
        }
    }

    private Command edit(String rest) throws CommandException {
        String[] numberAndText = rest.split("\\s+", 2);
        long number = number(":edit", numberAndText[0], ":edit <number> <new text>");
        String text = numberAndText.length > 1 ? numberAndText[1].strip() : "";
        return new Command.Edit(number, text(text, "usage: :edit <number> <new text>"));
    }

    private Command move(String rest) throws CommandException {
        List<String> words = words(rest);
        String usage = "usage: :move <number> <delay or time>, e.g. :move 7 30m or :move 7 tomorrow 9:00";
        if (words.size() < 2) {
            throw new CommandException((words.isEmpty() ? "the number and the new time are missing; "
                    : "the new time is missing; ") + usage);
        }
        long number = number(":move", words.get(0), ":move <number> <delay or time>");
        List<String> when = words.subList(1, words.size());
        if (TimeParser.startsTime(when.get(0))) {
            TimeParser.Parsed time = TimeParser.parse(when, ZonedDateTime.now(clock));
            if (time.words() != when.size()) {
                throw new CommandException("unexpected words after the time: '"
                        + String.join(" ", when.subList(time.words(), when.size())) + "'; " + usage);
            }
            checkHorizon(time.when());
            return new Command.Move(number, null, time.when());
        }
        if (when.size() != 1) {
            throw new CommandException("'" + String.join(" ", when) + "' is not a delay or a time; " + usage);
        }
        return new Command.Move(number, delayOf(when.get(0)), null);
    }

    private Command create(String rest) throws CommandException {
        List<String> words = words(rest);
        boolean open = !words.isEmpty() && words.get(0).equals("open");
        List<String> after = open ? words.subList(1, words.size()) : words;
        String usage = "usage: :create [open] #group [user...], e.g. :create #team bob carol";
        if (after.isEmpty()) {
            throw new CommandException("the group's name is missing; " + usage);
        }
        return new Command.CreateGroup(group(after.get(0), usage), open, users(after.subList(1, after.size()), usage));
    }

    private interface GroupAndUsers {
        Command make(String group, List<String> users);
    }

    private static Command groupAndUsers(String command, String rest, boolean needsUsers, GroupAndUsers make)
            throws CommandException {
        List<String> words = words(rest);
        String usage = "usage: " + command + " #group user...";
        if (words.isEmpty()) {
            throw new CommandException("the group's name is missing; " + usage);
        }
        List<String> users = users(words.subList(1, words.size()), usage);
        if (needsUsers && users.isEmpty()) {
            throw new CommandException("which users? " + usage);
        }
        return make.make(group(words.get(0), usage), users);
    }

    private static String groupOnly(String command, String rest) throws CommandException {
        List<String> words = words(rest);
        String usage = "usage: " + command + " #group";
        if (words.size() != 1) {
            throw new CommandException((words.isEmpty() ? "the group's name is missing; " : "one group, please; ")
                    + usage);
        }
        return group(words.get(0), usage);
    }

    /** A group's name, written {@code #name}. */
    private static String group(String word, String usage) throws CommandException {
        if (!word.startsWith("#")) {
            throw new CommandException("'" + word + "' is not a group (expected: #name); " + usage);
        }
        Optional<String> problem = ChatRules.groupProblem(word.substring(1));
        if (problem.isPresent()) {
            throw new CommandException(problem.get() + "; " + usage);
        }
        return UserNames.canonical(word.substring(1));
    }

    private static List<String> users(List<String> words, String usage) throws CommandException {
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

    private static Command history(String rest) throws CommandException {
        List<String> words = words(rest);
        String usage = "usage: :history @user [n] or :history #group [n] (n at most " + MAX_HISTORY
                + "; repeat it to page back)";
        if (words.isEmpty() || words.size() > 2) {
            throw new CommandException((words.isEmpty() ? "which conversation? " : "too many words; ") + usage);
        }
        String conversation = conversation(words.get(0), usage);
        int count = DEFAULT_HISTORY;
        if (words.size() == 2) {
            try {
                count = Integer.parseInt(words.get(1));
            } catch (NumberFormatException e) {
                count = 0;
            }
            if (count < 1 || count > MAX_HISTORY) {
                throw new CommandException("'" + words.get(1) + "' is not a number from 1 to " + MAX_HISTORY + "; "
                        + usage);
            }
        }
        return new Command.History(conversation, count);
    }

    private static Command search(String rest) throws CommandException {
        List<String> words = new ArrayList<>(words(rest));
        String usage = "usage: :search <words> [@user|#group], e.g. :search lunch #team";
        String conversation = "";
        if (!words.isEmpty()) {
            String last = words.get(words.size() - 1);
            if (last.startsWith("@") || last.startsWith("#")) {
                conversation = conversation(last, usage);
                words.remove(words.size() - 1);
            }
        }
        if (words.isEmpty()) {
            throw new CommandException("search for what? " + usage);
        }
        return new Command.Search(String.join(" ", words), conversation);
    }

    /** {@code @user} or {@code #group}, checked, in canonical form. */
    private static String conversation(String word, String usage) throws CommandException {
        if (word.startsWith("#")) {
            return "#" + group(word, usage);
        }
        if (!word.startsWith("@")) {
            throw new CommandException("'" + word + "' is not a conversation (expected: @user or #group); " + usage);
        }
        return "@" + users(List.of(word), usage).get(0);
    }

    private record Addressed(Recipient to, String text) {
    }

    /** Splits an optional leading {@code @user} from the text and checks both. */
    private Addressed addressed(String input, String usage) throws CommandException {
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

    private String text(String text, String usage) throws CommandException {
        if (text.isBlank()) {
            throw new CommandException("the text is missing; " + usage);
        }
        if (text.length() > maxTextLength) {
            throw new CommandException("the message is " + text.length() + " characters long; the maximum is "
                    + maxTextLength + " (cim.client.max-message-length)");
        }
        return text;
    }

    private static long number(String command, String word, String usage) throws CommandException {
        if (word.isEmpty()) {
            throw new CommandException("the number is missing; usage: " + usage + " (" + NUMBER_HINT + ")");
        }
        String digits = word.startsWith("#") ? word.substring(1) : word;
        try {
            long number = Long.parseLong(digits);
            if (number > 0) {
                return number;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new CommandException("'" + word + "' is not a number; usage: " + usage + " (" + NUMBER_HINT + ")");
    }

    private static Command noArguments(String name, String rest, Command command) throws CommandException {
        if (!rest.isEmpty()) {
            throw new CommandException(name + " takes no arguments, got '" + rest + "'");
        }
        return command;
    }

    private static List<String> words(String text) {
        String stripped = text.strip();
        return stripped.isEmpty() ? List.of() : Arrays.asList(stripped.split("\\s+"));
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
