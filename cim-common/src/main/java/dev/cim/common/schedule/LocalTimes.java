package dev.cim.common.schedule;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.zone.ZoneRules;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Wall-clock times in a zone, turned into instants: "9:00 in Europe/Berlin", the next time it is.
 *
 * <h3>The DST rule</h3>
 * Every wall-clock time in this package becomes an instant by one rule, here and in
 * {@link Recurrence}:
 * <ul>
 *   <li>a time the clock skips (spring forward: Europe/Berlin goes from 02:00 to 03:00 on
 *       2026-03-29, so 02:30 never shows) happens at the next valid instant, the moment of the jump,
 *       which the clock shows as 03:00;</li>
 *   <li>a time the clock shows twice (fall back: 02:30 on 2026-10-25 in Berlin, first at +02:00,
 *       then at +01:00) happens once, at the first of the two instants.</li>
 * </ul>
 * {@code java.time} agrees on the second but not on the first: it moves a skipped time by the
 * length of the gap (02:30 to 03:30).
 */
public final class LocalTimes {

    private static final Pattern TIME = Pattern.compile("(\\d{1,2}):(\\d{2})(?::(\\d{2}))?");
    private static final Pattern DATE_TIME = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})[ t](.+)");
    private static final String EXPECTED_TIME =
            "expected: H:MM, HH:MM or HH:MM:SS, or a date and time such as 2026-12-24 18:00";
    private static final DateTimeFormatter SHOW =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss zzz", Locale.ENGLISH);
    private static final Map<String, String> ZONES_BY_LOWER_CASE = ZoneId.getAvailableZoneIds().stream()
            .collect(Collectors.toUnmodifiableMap(id -> id.toLowerCase(Locale.ROOT), Function.identity()));

    private LocalTimes() {
    }

    /**
     * The next instant at which {@code time} is due in {@code zone}.
     *
     * @param time a time of day, {@code H:MM}, {@code HH:MM} or {@code HH:MM:SS} (24 h): the first
     *        instant strictly after {@code now} at which the clock in {@code zone} shows it, today if
     *        still ahead, else tomorrow; or a date and time, {@code 2026-12-24 18:00} or
     *        {@code 2026-12-24T18:00} (seconds optional): that instant. Both by the DST rule above.
     * @throws IllegalArgumentException if {@code time} is neither, or is a date and time not after
     *         {@code now}
     */
    public static Instant nextAt(String time, ZoneId zone, Instant now) {
        Objects.requireNonNull(zone, "zone (expected: a time zone)");
        Objects.requireNonNull(now, "now (expected: the current instant)");
        String text = time == null ? "" : time.trim();
        LocalTime clock = timeOfDay(text, true);
        if (clock != null) {
            for (LocalDate day = now.atZone(zone).toLocalDate(); ; day = day.plusDays(1)) {
                Instant at = instant(day.atTime(clock), zone);
                if (at.isAfter(now)) {
                    return at;
                }
            }
        }
        LocalDateTime local = dateTime(text);
        if (local == null) {
            throw new IllegalArgumentException("'" + text + "' is not a time (" + EXPECTED_TIME + ")");
        }
        Instant at = instant(local, zone);
        if (!at.isAfter(now)) {
            throw new IllegalArgumentException(text + " is in the past (expected: a time ahead)");
        }
        return at;
    }

    /**
     * The zone named {@code name}: an IANA id ({@code Europe/Berlin}, {@code Asia/Tokyo}, in any
     * case), {@code UTC}, {@code Z}, or an offset such as {@code +02:00}.
     *
     * @throws IllegalArgumentException if there is no such zone
     */
    public static ZoneId zone(String name) {
        String text = name == null ? "" : name.trim();
        String region = ZONES_BY_LOWER_CASE.get(text.toLowerCase(Locale.ROOT));
        try {
            return ZoneId.of(region != null ? region : text.toUpperCase(Locale.ROOT));
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("unknown time zone '" + text
                    + "' (expected: an IANA zone such as Europe/Berlin)");
        }
    }

    /** {@code at} as the clock in {@code zone} shows it, such as {@code 2026-11-26 09:00:00 CET}. */
    public static String show(Instant at, ZoneId zone) {
        return SHOW.format(at.atZone(zone));
    }

    /** The instant at which the clock in {@code zone} shows {@code local}, by the DST rule above. */
    static Instant instant(LocalDateTime local, ZoneId zone) {
        ZoneRules rules = zone.getRules();
        if (rules.getValidOffsets(local).isEmpty()) {
            return rules.getTransition(local).getInstant(); // skipped: the moment of the jump
        }
        return local.atZone(zone).toInstant(); // shown twice: atZone takes the earlier offset
    }

    /**
     * {@code text} as a time of day {@code H:MM} or {@code HH:MM}, also {@code HH:MM:SS} when
     * {@code seconds}; null if it is not one.
     */
    static LocalTime timeOfDay(String text, boolean seconds) {
        Matcher m = TIME.matcher(text);
        if (!m.matches() || (m.group(3) != null && !seconds)) {
            return null;
        }
        int hour = Integer.parseInt(m.group(1));
        int minute = Integer.parseInt(m.group(2));
        int second = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        return hour <= 23 && minute <= 59 && second <= 59 ? LocalTime.of(hour, minute, second) : null;
    }

    /** {@code text} as {@code yyyy-MM-dd} and a time of day, apart by a space or {@code T}; null if not. */
    static LocalDateTime dateTime(String text) {
        Matcher m = DATE_TIME.matcher(text.toLowerCase(Locale.ROOT));
        LocalDate day = m.matches() ? date(m.group(1)) : null;
        LocalTime clock = day == null ? null : timeOfDay(m.group(2), true);
        return clock == null ? null : day.atTime(clock);
    }

    /** {@code text} as a date {@code yyyy-MM-dd}; null if it is not one. */
    static LocalDate date(String text) {
        try {
            return LocalDate.parse(text);
        } catch (DateTimeException e) {
            return null;
        }
    }
}
