package dev.cim.client.command;

import dev.cim.client.core.When;
import dev.cim.common.schedule.Recurrence;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.function.Supplier;

/**
 * Reads {@code :every}, a recurring message:
 * <pre>
 *   :every &lt;rule&gt; [until &lt;end&gt;] [times &lt;N&gt;] [late drop &lt;duration&gt;] [@user|#group] &lt;text&gt;
 *
 *   :every 2s times 3 @bob tick             three, two seconds apart
 *   :every weekday 9:00 until 2026-12-31 #team standup
 *   :every "0 9 * * 1-5" late drop 10m @bob standup
 * </pre>
 * The rule is one of {@link Recurrence}'s: {@code 10s}, {@code 2h}, {@code 1d}, {@code weekday 9:00},
 * {@code mon,thu 17:30}, {@code 1st 10:00}, {@code last 18:00}, or five cron fields in double quotes.
 * It is two words when the first two are a rule, else one. Its wall clock is the user's zone
 * (the account's, else this client's), passed with {@link When#zone}; an end ({@link ScheduleWords#end})
 * too is read there. An interval under a second is refused by {@link Recurrence#parse}.
 */
final class EveryParser {

    static final String USAGE = "usage: :every <rule> [until <end>|times <N>] [late drop <duration>] [@user|#group] "
            + "<text>, e.g. :every weekday 9:00 @bob standup";
    static final String TIMES_EXPECTED = "expected: times 1 or more, e.g. times 3";

    private final Clock clock;
    private final Supplier<ZoneId> zone;
    private final Addressing addressing;

    EveryParser(Clock clock, Supplier<ZoneId> zone, Addressing addressing) {
        this.clock = clock;
        this.zone = zone;
        this.addressing = addressing;
    }

    Command every(String rest) throws CommandException {
        Words words = new Words(rest);
        if (words.isEmpty()) {
            throw new CommandException("the rule and the text are missing; " + USAGE);
        }
        ZoneId here = zone.get();
        When when = When.every(rule(words)).zone(here);
        Instant until = null;
        int times = 0;
        for (String word = words.peek(0); "until".equals(word) || "times".equals(word); word = words.peek(0)) {
            words.take();
            if ((word.equals("until") && until != null) || (word.equals("times") && times > 0)) {
                throw new CommandException("'" + word + "' twice (expected: one until, one times, or one of each)");
            }
            if (word.equals("until")) {
                until = ScheduleWords.end(words.take(), here, clock.instant());
                when = when.until(until);
            } else {
                times = times(words.take());
                when = when.times(times);
            }
        }
        Duration late = ScheduleWords.takeLate(words);
        if (words.isEmpty()) {
            throw new CommandException("the text is missing; " + USAGE);
        }
        Addressing.Addressed message = addressing.addressed(words.rest(), USAGE);
        return new Command.Schedule(message.to(), message.text(), late.isZero() ? when : when.dropLateAfter(late));
    }

    /** Takes the rule off the front of {@code words}: in quotes, two words if they are a rule, else one. */
    private static String rule(Words words) throws CommandException {
        if (words.rest().startsWith("\"")) {
            String quoted = words.takeQuoted();
            if (quoted == null) {
                throw new CommandException("the closing quote of the rule is missing (expected: a cron expression in "
                        + "double quotes, e.g. :every \"0 9 * * 1-5\" @bob standup)");
            }
            return checked(quoted);
        }
        String two = words.peek(0) + " " + words.peek(1);
        String twoProblem = words.peek(1).isEmpty() ? "" : problem(two);
        if (twoProblem == null) {
            words.skip(2);
            return two;
        }
        String one = words.take();
        if (problem(one) != null) {
            if (twoProblem.contains("is not a time of day")) { // weekday standup: a rule's day without its time
                throw new CommandException(twoProblem);
            }
            if (words.size() >= 4) {
                String cron = one + " " + String.join(" ", words.list().subList(0, 4));
                if (problem(cron) == null) {
                    throw new CommandException("a cron expression goes in double quotes (expected: :every \"" + cron
                            + "\" ...)");
                }
            }
        }
        return checked(one);
    }

    /** Why {@code spec} is not a rule; null when it is one. */
    private static String problem(String spec) {
        try {
            Recurrence.parse(spec);
            return null;
        } catch (IllegalArgumentException notARule) {
            return notARule.getMessage();
        }
    }

    /** {@code spec}, if it is a rule; else why not. */
    private static String checked(String spec) throws CommandException {
        try {
            return Recurrence.parse(spec).spec();
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage());
        }
    }

    private static int times(String word) throws CommandException {
        if (word.isEmpty()) {
            throw new CommandException("the number of times is missing (" + TIMES_EXPECTED + ")");
        }
        int times;
        try {
            times = Integer.parseInt(word);
        } catch (NumberFormatException e) {
            times = 0;
        }
        if (times < 1) {
            throw new CommandException("'" + word + "' is not a number of times (" + TIMES_EXPECTED + ")");
        }
        return times;
    }
}
