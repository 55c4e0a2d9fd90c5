package dev.cim.client.command;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.zone.ZoneOffsetTransition;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads the clock times of {@code :at} and {@code :move}, in the user's time zone:
 * <pre>
 *   17:30                 today at 17:30 (it must not have passed)
 *   today 17:30           the same
 *   tomorrow 9:00         tomorrow at 9:00
 *   2027-01-05 09:00      on that date
 * </pre>
 * Seconds may follow ({@code 17:30:15}). A time that does not exist (the hour the clocks skip when
 * daylight saving time begins) is refused; a time that exists twice (the hour repeated when it ends)
 * is the first of the two.
 */
final class TimeParser {

    static final String EXPECTED = "expected HH:MM, today HH:MM, tomorrow HH:MM or YYYY-MM-DD HH:MM";

    private static final Pattern TIME = Pattern.compile("\\d{1,2}:\\d{2}(:\\d{2})?");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    // STRICT: the default (SMART) reads "24:00" as 00:00 of the same day, a day early.
    private static final DateTimeFormatter TIME_FORMAT = DateTimeFormatter.ofPattern("H:mm[:ss]")
            .withResolverStyle(ResolverStyle.STRICT);

    /** A time read from the start of a line, and how many words it took. */
    record Parsed(ZonedDateTime when, int words) {
    }

    private TimeParser() {
    }

    /** True when {@code word} can start a time. */
    static boolean startsTime(String word) {
        return TIME.matcher(word).matches() || DATE.matcher(word).matches() || "today".equals(word)
                || "tomorrow".equals(word);
    }

    /**
     * A time as typed, not yet placed in a zone.
     *
     * @param day   its day: today's or tomorrow's date, or the one written; null for a clock time
     *              alone (today's, for {@link #parse}; the next one, for the server)
     * @param time  the clock time
     * @param words how many words it took
     */
    record Local(LocalDate day, LocalTime time, int words) {

        /** As the server reads a time of day: {@code 09:00}, {@code 2027-01-05 09:00:30}. */
        String forServer() {
            return day == null ? time.toString() : day + " " + time;
        }
    }

    /**
     * Reads a time from the first one or two of {@code words}.
     *
     * @param now the current time in the user's zone
     * @throws CommandException when the words are not a time, or the time has passed or does not exist
     */
    static Parsed parse(List<String> words, ZonedDateTime now) throws CommandException {
        Local local = read(words, now.toLocalDate());
        LocalDate day = local.day() == null ? now.toLocalDate() : local.day();
        String written = String.join(" ", words.subList(0, local.words()));
        ZonedDateTime when = zoned(LocalDateTime.of(day, local.time()), now.getZone(), written);
        if (!when.isAfter(now)) {
            String hint = local.words() == 1 ? "; for tomorrow: tomorrow " + words.get(0) : "";
            throw new CommandException(written + " has passed (it is "
                    + now.toLocalDateTime().withNano(0).toString().replace('T', ' ') + ")" + hint);
        }
        return new Parsed(when, local.words());
    }

    /**
     * Reads the form of a time from the first one or two of {@code words}, without placing it in a
     * zone: {@code today} and {@code tomorrow} are days of the user's calendar, {@code today}.
     *
     * @throws CommandException when the words are not a time
     */
    static Local read(List<String> words, LocalDate today) throws CommandException {
        if (words.isEmpty()) {
            throw new CommandException("the time is missing (" + EXPECTED + ")");
        }
        String first = words.get(0);
        LocalDate day;
        String clock;
        int used;
        if (TIME.matcher(first).matches()) {
            day = null;
            clock = first;
            used = 1;
        } else {
            if (words.size() < 2) {
                throw new CommandException("'" + first + "' is not a time (" + EXPECTED + ")");
            }
            clock = words.get(1);
            used = 2;
            day = switch (first) {
                case "today" -> today;
                case "tomorrow" -> today.plusDays(1);
                default -> date(first);
            };
        }
        if (!TIME.matcher(clock).matches()) {
            throw new CommandException("'" + clock + "' is not a time of day (" + EXPECTED + ")");
        }
        try {
            return new Local(day, LocalTime.parse(clock, TIME_FORMAT), used);
        } catch (DateTimeParseException e) {
            throw new CommandException("'" + clock + "' is not a time of day (expected: 00:00 to 23:59)");
        }
    }

    private static LocalDate date(String word) throws CommandException {
        if (!DATE.matcher(word).matches()) {
            throw new CommandException("'" + word + "' is not a time (" + EXPECTED + ")");
        }
        try {
            return LocalDate.parse(word);
        } catch (DateTimeParseException e) {
            throw new CommandException("'" + word + "' is not a date (expected: YYYY-MM-DD, e.g. 2027-01-05)");
        }
    }

    private static ZonedDateTime zoned(LocalDateTime local, ZoneId zone, String written) throws CommandException {
        ZoneOffsetTransition transition = zone.getRules().getTransition(local);
        if (transition != null && transition.isGap()) {
            throw new CommandException(written + " does not exist in " + zone + ": the clocks go forward from "
                    + transition.getDateTimeBefore().toLocalTime() + " to " + transition.getDateTimeAfter().toLocalTime()
                    + " that day (expected: a time outside that hour)");
        }
        try {
            return ZonedDateTime.ofLocal(local, zone, null); // in an overlap, the earlier of the two
        } catch (DateTimeException e) {
            throw new CommandException(written + " is not a time in " + zone + ": " + e.getMessage());
        }
    }
}
