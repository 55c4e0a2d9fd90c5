package dev.cim.client.command;

import dev.cim.common.schedule.DelayParser;
import dev.cim.common.schedule.LocalTimes;
import dev.cim.common.schedule.Series;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The words the scheduling commands share: a late policy, an end, a time zone.
 * <pre>
 *   late send                   the default: sent however late (accepted, means nothing)
 *   late drop 5m                dropped, not sent, if it cannot go out within 5 minutes of its time
 *   late drop after 5m          the same
 *   until 2d                    an end: 2 days from now; 2026-12-31 (the end of that day);
 *                               2026-12-31T18:00
 *   Asia/Tokyo, UTC, +09:00     a zone (an IANA region, UTC or GMT, or an offset with its colon)
 * </pre>
 * A late policy is only read as one when {@code late} is followed by {@code send} or {@code drop}:
 * {@code :at 12:00 late lunch?} is a message that says "late lunch?".
 */
final class ScheduleWords {

    static final String END_MISSING =
            "the end is missing (expected: until 2d, until 2026-12-31 or until 2026-12-31T18:00)";
    static final String LATE_EXPECTED = "expected: late send, or late drop <duration> such as late drop 5m";

    /** The areas of the IANA zone names (Europe, Asia, America, ...): a word such as Asia/Tokio is meant as a zone. */
    private static final Set<String> AREAS = ZoneId.getAvailableZoneIds().stream().filter(id -> id.contains("/"))
            .map(id -> id.substring(0, id.indexOf('/')).toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
    private static final Pattern OFFSET = Pattern.compile("(?i)(utc|gmt)|((utc|gmt)?[+-]\\d{1,2}(:\\d{2})?)");
    private static final Pattern BARE_OFFSET = Pattern.compile("[+-]\\d{1,2}");

    private ScheduleWords() {
    }

    /** True when {@code first} and {@code second} start a late policy: {@code late send} or {@code late drop}. */
    static boolean startsLate(String first, String second) {
        return "late".equals(first) && ("send".equals(second) || "drop".equals(second));
    }

    /**
     * Takes a late policy off the front of {@code words}, if it starts with one.
     *
     * @return the limit of {@code late drop}; {@link Duration#ZERO} for {@code late send} or none
     */
    static Duration takeLate(Words words) throws CommandException {
        if (!startsLate(words.peek(0), words.peek(1))) {
            return Duration.ZERO;
        }
        words.take();
        if ("send".equals(words.take())) {
            return Duration.ZERO;
        }
        if ("after".equals(words.peek(0))) {
            words.take();
        }
        return lateLimit(words.take());
    }

    /**
     * Takes a late policy off the end of {@code words} ({@code :delay hi 10m late drop 1m}), if it
     * ends with one.
     *
     * @return the limit of {@code late drop}; {@link Duration#ZERO} for {@code late send} or none
     */
    static Duration takeLateAtEnd(Words words) throws CommandException {
        if (startsLate(words.peekLast(1), words.peekLast(0))) { // late send, or late drop without its limit
            boolean drop = "drop".equals(words.takeLast());
            words.takeLast();
            return drop ? lateLimit("") : Duration.ZERO;
        }
        int policyWords = "drop".equals(words.peekLast(1)) ? 3 : "after".equals(words.peekLast(1)) ? 4 : 0;
        if (policyWords == 0 || !startsLate(words.peekLast(policyWords - 1), "drop")
                || (policyWords == 4 && !"drop".equals(words.peekLast(2)))) {
            return Duration.ZERO;
        }
        Duration limit = lateLimit(words.takeLast());
        for (int i = 1; i < policyWords; i++) {
            words.takeLast();
        }
        return limit;
    }

    private static Duration lateLimit(String word) throws CommandException {
        if (word.isEmpty()) {
            throw new CommandException("the late limit is missing (" + LATE_EXPECTED + ")");
        }
        Duration limit;
        try {
            limit = DelayParser.parse(word);
        } catch (IllegalArgumentException e) {
            throw new CommandException("'" + word + "' is not a late limit (" + LATE_EXPECTED + ")");
        }
        if (limit.isZero()) {
            throw new CommandException("the late limit must be more than 0 (" + LATE_EXPECTED + ")");
        }
        return limit;
    }

    /**
     * The end {@code word} says ({@code 2d}, {@code 2026-12-31}, {@code 2026-12-31T18:00}), read in
     * {@code zone} from {@code now}.
     */
    static Instant end(String word, ZoneId zone, Instant now) throws CommandException {
        if (word.isEmpty()) {
            throw new CommandException(END_MISSING);
        }
        try {
            return Series.parseUntil(word, zone, now);
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage());
        }
    }

    /**
     * True when {@code word} is meant as a time zone: an IANA name (a known area, a slash, the rest:
     * {@code Asia/Tokyo}, or {@code Asia/Tokio} mistyped), {@code UTC}, {@code GMT} or an offset
     * ({@code +09:00}, {@code UTC+9}). Not {@code their}, which is the recipient's zone.
     */
    static boolean isZone(String word) {
        int slash = word.indexOf('/');
        if (slash > 0) {
            return AREAS.contains(word.substring(0, slash).toLowerCase(Locale.ROOT));
        }
        return OFFSET.matcher(word).matches() && !BARE_OFFSET.matcher(word).matches();
    }

    /** The zone {@code word} names; see {@link #isZone}. */
    static ZoneId zone(String word) throws CommandException {
        try {
            return LocalTimes.zone(word);
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage());
        }
    }
}
