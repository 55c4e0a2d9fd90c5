package dev.cim.client.command;

import dev.cim.client.core.Recipient;
import dev.cim.client.core.When;
import dev.cim.common.schedule.DelayFormat;
import dev.cim.common.schedule.DelayParser;
import dev.cim.common.schedule.LocalTimes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads {@code :delay}, {@code :at} and {@code :move}, in the user's time zone:
 * <pre>
 *   :delay [@user|#group] &lt;text&gt; &lt;delay&gt; [late drop &lt;duration&gt;]
 *   :delay @user &lt;text&gt; online [until &lt;end&gt;]     when the user next logs in (at once if online)
 *   :at &lt;time&gt; [their|&lt;zone&gt;] [late drop &lt;duration&gt;] [@user|#group] &lt;text&gt;
 *   :move &lt;number&gt; &lt;delay or time&gt;
 * </pre>
 * A plain {@code :delay} or {@code :at} is a {@link Command.Delay} or {@link Command.At}, as before;
 * one that says more is a {@link Command.Schedule}. With a zone word the time is the server's to
 * place: {@code 9:00} is the next 9:00 on that clock, {@code tomorrow 9:00} 9:00 on the user's
 * tomorrow; {@code their} is the recipient's clock (their account's zone, else the user's).
 */
final class ScheduleParser {

    static final String DELAY_USAGE = "usage: :delay [@user|#group] <text> <delay>, e.g. :delay see you soon 5m";
    static final String AT_USAGE = "usage: :at <time> [@user|#group] <text>, e.g. :at 17:30 @bob call me";
    static final String ONLINE_ONLY_TO_A_USER = "'online' waits for one user to log in "
            + "(expected: :delay @user <text> online [until <end>])";
    static final String THEIR_ONLY_TO_A_USER = "'their' reads the time on the recipient's clock, so it needs one user "
            + "(expected: :at <time> their @user <text>; for a text that starts with 'their': :at <time> @everyone their ...)";

    private final Duration maxDelay;
    private final Clock clock;
    private final Supplier<ZoneId> zone;
    private final Addressing addressing;

    ScheduleParser(Duration maxDelay, Clock clock, Supplier<ZoneId> zone, Addressing addressing) {
        this.maxDelay = maxDelay;
        this.clock = clock;
        this.zone = zone;
        this.addressing = addressing;
    }

    Command delay(String rest) throws CommandException {
        Words words = new Words(rest);
        Duration late = ScheduleWords.takeLateAtEnd(words);
        if (words.size() < 2) {
            throw new CommandException((words.isEmpty() ? "the text and the delay are missing; " : "the delay is missing; ")
                    + DELAY_USAGE);
        }
        if ("online".equals(words.peekLast(1)) && "until".equals(words.peekLast(0))) {
            throw new CommandException(ScheduleWords.END_MISSING);
        }
        if ("online".equals(words.peekLast(2)) && "until".equals(words.peekLast(1))) {
            String end = words.takeLast();
            words.takeLast();
            words.takeLast();
            Instant deadline = ScheduleWords.end(end, zone.get(), clock.instant());
            checkHorizon(deadline, end);
            return online(words, When.online(deadline), late);
        }
        if ("online".equals(words.peekLast(0))) {
            words.takeLast();
            return online(words, When.online(), late);
        }
        Duration delay = delayOf(words.takeLast());
        Addressing.Addressed message = addressing.addressed(words.rest(), DELAY_USAGE);
        if (late.isZero()) {
            return new Command.Delay(message.to(), message.text(), delay);
        }
        return new Command.Schedule(message.to(), message.text(), When.in(delay).dropLateAfter(late));
    }

    private Command online(Words words, When when, Duration late) throws CommandException {
        Addressing.Addressed message = addressing.addressed(words.rest(), DELAY_USAGE);
        if (!isUser(message.to())) {
            throw new CommandException(ONLINE_ONLY_TO_A_USER);
        }
        if (!late.isZero()) {
            throw new CommandException("a late policy is for a time, and 'online' has none "
                    + "(expected: :delay @user <text> online [until <end>], without late drop)");
        }
        return new Command.Schedule(message.to(), message.text(), when);
    }

    Duration delayOf(String token) throws CommandException {
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

    Command at(String rest) throws CommandException {
        Words words = new Words(rest);
        if (words.isEmpty()) {
            throw new CommandException("the time and the text are missing; " + AT_USAGE);
        }
        ZonedDateTime now = clock.instant().atZone(zone.get());
        TimeParser.Local local = TimeParser.read(words.list(), now.toLocalDate());
        String zoneWord = words.peek(local.words());
        if ("their".equals(zoneWord) || ScheduleWords.isZone(zoneWord)) {
            words.skip(local.words() + 1);
            return atZone(words, local, zoneWord, now);
        }
        TimeParser.Parsed time = TimeParser.parse(words.list(), now);
        checkHorizon(time.when().toInstant(), time.when().toLocalDate().toString());
        words.skip(time.words());
        Duration late = ScheduleWords.takeLate(words);
        Addressing.Addressed message = atMessage(words);
        if (late.isZero()) {
            return new Command.At(message.to(), message.text(), time.when());
        }
        return new Command.Schedule(message.to(), message.text(), When.at(time.when().toInstant()).dropLateAfter(late));
    }

    /** {@code :at} with a zone word after the time: the server places the time on that clock. */
    private Command atZone(Words words, TimeParser.Local local, String zoneWord, ZonedDateTime now)
            throws CommandException {
        boolean theirs = "their".equals(zoneWord);
        String time = local.forServer();
        When when;
        if (theirs) {
            when = theirTimeOfDay(time).zone(now.getZone()); // the user's clock when they set none
        } else {
            ZoneId there = ScheduleWords.zone(zoneWord);
            Instant due;
            try {
                due = LocalTimes.nextAt(time, there, now.toInstant()); // as the server will place it
            } catch (IllegalArgumentException e) {
                throw new CommandException(e.getMessage());
            }
            checkHorizon(due, time);
            when = When.timeOfDay(time, there);
        }
        Duration late = ScheduleWords.takeLate(words);
        Addressing.Addressed message = atMessage(words);
        if (theirs && !isUser(message.to())) {
            throw new CommandException(THEIR_ONLY_TO_A_USER);
        }
        return new Command.Schedule(message.to(), message.text(), late.isZero() ? when : when.dropLateAfter(late));
    }

    private Addressing.Addressed atMessage(Words words) throws CommandException {
        if (words.isEmpty()) {
            throw new CommandException("the text is missing; " + AT_USAGE);
        }
        return addressing.addressed(words.rest(), AT_USAGE);
    }

    Command move(long number, List<String> when, String usage) throws CommandException {
        if (TimeParser.startsTime(when.get(0))) {
            TimeParser.Parsed time = TimeParser.parse(when, clock.instant().atZone(zone.get()));
            if (time.words() != when.size()) {
                throw new CommandException("unexpected words after the time: '"
                        + String.join(" ", when.subList(time.words(), when.size())) + "'; " + usage);
            }
            checkHorizon(time.when().toInstant(), time.when().toLocalDate().toString());
            return new Command.Move(number, null, time.when());
        }
        if (when.size() != 1) {
            throw new CommandException("'" + String.join(" ", when) + "' is not a delay or a time; " + usage);
        }
        return new Command.Move(number, delayOf(when.get(0)), null);
    }

    /** Refuses {@code due}, written {@code written}, if it is further ahead than the maximum delay. */
    private void checkHorizon(Instant due, String written) throws CommandException {
        Duration ahead = Duration.between(clock.instant(), due);
        if (ahead.compareTo(maxDelay) > 0) {
            throw new CommandException(written + " is more than " + DelayFormat.format(maxDelay)
                    + " ahead, the maximum (cim.client.max-delay)");
        }
    }

    private static When theirTimeOfDay(String time) throws CommandException {
        try {
            return When.theirTimeOfDay(time);
        } catch (IllegalArgumentException e) { // a date long past, say: the library reads it as the server will
            throw new CommandException(e.getMessage());
        }
    }

    /** True when {@code to} is one user. */
    static boolean isUser(Recipient to) {
        return !to.isGroup() && !to.isEveryone();
    }
}
