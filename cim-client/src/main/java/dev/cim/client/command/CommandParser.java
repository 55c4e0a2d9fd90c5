package dev.cim.client.command;

import dev.cim.client.core.Recipient;
import dev.cim.common.schedule.LocalTimes;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

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
 *   :delay &#64;bob hi online         Schedule: when bob next logs in (also: online until 2d)
 *   :at 17:30 &#64;bob call me        At: today at 17:30 (also: tomorrow 9:00, 2027-01-05 09:00)
 *   :at 9:00 their &#64;bob hi        Schedule: 9:00 on bob's clock (also a zone: 9:00 Asia/Tokyo)
 *   :every 2s times 3 &#64;bob tick   Schedule: recurring (see {@link EveryParser})
 *   ... late drop 5m              on :delay (at the end), :at and :every (after the time): dropped if late
 *   :delays  :cancel 7  :edit 7 new text  :move 7 1h  :move 7 tomorrow 9:00  :skip 7  :sent [n]
 *   :tz  :tz Europe/Berlin        ShowZone, SetZone
 *   #team hi                      Send to the members of #team
 *   :create [open] #team bob      CreateGroup; :invite #team carol  :join #team  :leave #team
 *   :kick #team carol  :groups  :members #team
 *   :history @bob 50              History: the last 50 (a repeat pages back); :history #team
 *   :search lunch [#team]         Search
 *   :olu  :help  :q  :q!
 * </pre>
 * The scheduling commands are read by {@link ScheduleParser} and {@link EveryParser}, in the
 * user's time zone.
 */
public final class CommandParser {

    static final String DELAY_USAGE = ScheduleParser.DELAY_USAGE;
    static final String AT_USAGE = ScheduleParser.AT_USAGE;
    static final String PRIVATE_USAGE = "usage: @user <text> or #group <text>, e.g. @bob hi";
    static final String NUMBER_HINT = "numbers are listed by :delays";
    static final int DEFAULT_HISTORY = 20;
    static final int MAX_HISTORY = 200;
    static final int DEFAULT_SENT = 20;
    static final int MAX_SENT = 200;

    private final Addressing addressing;
    private final ScheduleParser schedules;
    private final EveryParser every;

    /**
     * A parser whose user's time zone is {@code clock}'s.
     *
     * @param maxDelay      the longest delay accepted (the server may accept less, and says so)
     * @param maxTextLength the most characters in a message's text
     * @param clock         now, in the user's time zone (for {@code :at})
     */
    public CommandParser(Duration maxDelay, int maxTextLength, Clock clock) {
        this(maxDelay, maxTextLength, clock, clock::getZone);
    }

    /**
     * @param maxDelay      the longest delay accepted (the server may accept less, and says so)
     * @param maxTextLength the most characters in a message's text
     * @param clock         now
     * @param zone          the user's time zone, as it is when a line is read (the account's, once
     *                      set, else the client's): where {@code :at} and {@code :every} read times
     */
    public CommandParser(Duration maxDelay, int maxTextLength, Clock clock, Supplier<ZoneId> zone) {
        Objects.requireNonNull(maxDelay, "maxDelay");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(zone, "zone");
        this.addressing = new Addressing(maxTextLength);
        this.schedules = new ScheduleParser(maxDelay, clock, zone, addressing);
        this.every = new EveryParser(clock, zone, addressing);
    }

    public Command parse(String line) throws CommandException {
        String input = line.strip();
        if (input.isEmpty()) {
            return new Command.Nothing();
        }
        if (input.startsWith("::")) {
            return new Command.Send(Recipient.EVERYONE, addressing.text(input.substring(1), PRIVATE_USAGE));
        }
        if (!input.startsWith(":")) {
            Addressing.Addressed message = addressing.addressed(input, PRIVATE_USAGE);
            return new Command.Send(message.to(), message.text());
        }
        String[] nameAndRest = input.split("\\s+", 2);
        String rest = nameAndRest.length > 1 ? nameAndRest[1] : "";
        return switch (nameAndRest[0]) {
            case ":delay" -> schedules.delay(rest);
            case ":at" -> schedules.at(rest);
            case ":every" -> every.every(rest);
            case ":delays" -> noArguments(":delays", rest, new Command.ListDelays());
            case ":cancel" -> new Command.Cancel(number(":cancel", rest, ":cancel <number>"));
            case ":skip" -> new Command.Skip(number(":skip", rest, ":skip <number>"));
            case ":sent" -> sent(rest);
            case ":tz" -> zone(rest);
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

    private Command edit(String rest) throws CommandException {
        String[] numberAndText = rest.split("\\s+", 2);
        long number = number(":edit", numberAndText[0], ":edit <number> <new text>");
        String text = numberAndText.length > 1 ? numberAndText[1].strip() : "";
        return new Command.Edit(number, addressing.text(text, "usage: :edit <number> <new text>"));
    }

    private Command move(String rest) throws CommandException {
        List<String> words = words(rest);
        String usage = "usage: :move <number> <delay or time>, e.g. :move 7 30m or :move 7 tomorrow 9:00";
        if (words.size() < 2) {
            throw new CommandException((words.isEmpty() ? "the number and the new time are missing; "
                    : "the new time is missing; ") + usage);
        }
        long number = number(":move", words.get(0), ":move <number> <delay or time>");
        return schedules.move(number, words.subList(1, words.size()), usage);
    }

    private static Command sent(String rest) throws CommandException {
        List<String> words = words(rest);
        String usage = "usage: :sent [n] (n at most " + MAX_SENT + ")";
        if (words.isEmpty()) {
            return new Command.ListSent(DEFAULT_SENT);
        }
        int count;
        try {
            count = words.size() == 1 ? Integer.parseInt(words.get(0)) : 0;
        } catch (NumberFormatException e) {
            count = 0;
        }
        if (count < 1 || count > MAX_SENT) {
            throw new CommandException("'" + rest.strip() + "' is not a number from 1 to " + MAX_SENT + "; " + usage);
        }
        return new Command.ListSent(count);
    }

    private static Command zone(String rest) throws CommandException {
        List<String> words = words(rest);
        if (words.isEmpty()) {
            return new Command.ShowZone();
        }
        if (words.size() > 1) {
            throw new CommandException("one zone, please, got '" + rest.strip() + "'; usage: :tz [<zone>], e.g. :tz Europe/Berlin");
        }
        try {
            return new Command.SetZone(LocalTimes.zone(words.get(0)));
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage());
        }
    }

    private Command create(String rest) throws CommandException {
        List<String> words = words(rest);
        boolean open = !words.isEmpty() && words.get(0).equals("open");
        List<String> after = open ? words.subList(1, words.size()) : words;
        String usage = "usage: :create [open] #group [user...], e.g. :create #team bob carol";
        if (after.isEmpty()) {
            throw new CommandException("the group's name is missing; " + usage);
        }
        return new Command.CreateGroup(Addressing.group(after.get(0), usage), open,
                Addressing.users(after.subList(1, after.size()), usage));
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
        List<String> users = Addressing.users(words.subList(1, words.size()), usage);
        if (needsUsers && users.isEmpty()) {
            throw new CommandException("which users? " + usage);
        }
        return make.make(Addressing.group(words.get(0), usage), users);
    }

    private static String groupOnly(String command, String rest) throws CommandException {
        List<String> words = words(rest);
        String usage = "usage: " + command + " #group";
        if (words.size() != 1) {
            throw new CommandException((words.isEmpty() ? "the group's name is missing; " : "one group, please; ")
                    + usage);
        }
        return Addressing.group(words.get(0), usage);
    }

    private static Command history(String rest) throws CommandException {
        List<String> words = words(rest);
        String usage = "usage: :history @user [n] or :history #group [n] (n at most " + MAX_HISTORY
                + "; repeat it to page back)";
        if (words.isEmpty() || words.size() > 2) {
            throw new CommandException((words.isEmpty() ? "which conversation? " : "too many words; ") + usage);
        }
        String conversation = Addressing.conversation(words.get(0), usage);
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
                conversation = Addressing.conversation(last, usage);
                words.remove(words.size() - 1);
            }
        }
        if (words.isEmpty()) {
            throw new CommandException("search for what? " + usage);
        }
        return new Command.Search(String.join(" ", words), conversation);
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
}
