package dev.cim.common.schedule;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;

/**
 * A rule of the wall clock: the days it fires on, and the minutes of those days. Its occurrences
 * are those days at those minutes in a zone, made instants by {@link LocalTimes}' DST rule.
 *
 * <h3>The search</h3>
 * {@link #next} walks the days from the one {@code after} falls on, and each day's minutes from
 * the minute {@code after} shows, and takes the first whose instant is after {@code after}. Walking
 * the wall clock in order walks the instants in order too, because the DST rule never maps a later
 * local time to an earlier instant (a skipped time goes to the jump, a repeated one to its first
 * pass); so nothing before the minute {@code after} shows can be after {@code after}, and the first
 * found is the next. In the second pass of a repeated hour the minutes found resolve to the first
 * pass, before {@code after}, and are passed over: that hour fires once. The walk stops after
 * {@link #SEARCH_YEARS} years and a day: days that match nothing in that time match nothing ever.
 */
sealed interface CalendarRule extends Recurrence permits Weekly, Monthly, Cron {

    /**
     * How far {@link #next} looks, in years (and a day): the longest wait between two days a rule
     * can match is eight years, between two 29ths of February across 2100, which is not a leap year
     * ({@code 0 0 29 2 *}: 2096-02-29, then 2104-02-29).
     */
    int SEARCH_YEARS = 8;

    /** True when the rule fires on {@code day}. */
    boolean firesOn(LocalDate day);

    /**
     * The first minute of the day, counted from midnight, at or after {@code minuteOfDay} at which
     * the rule fires on the days it fires on; -1 if none (always for 1440, the day's end).
     */
    int firstMinuteFrom(int minuteOfDay);

    @Override
    default Optional<Instant> next(Instant after, ZoneId zone, Instant seriesStart) {
        Objects.requireNonNull(after, "after (expected: an instant)");
        Objects.requireNonNull(zone, "zone (expected: the zone whose clock the rule reads)");
        LocalDateTime start = after.atZone(zone).toLocalDateTime();
        LocalDate last = start.toLocalDate().plusYears(SEARCH_YEARS).plusDays(1);
        int from = start.getHour() * 60 + start.getMinute();
        for (LocalDate day = start.toLocalDate(); !day.isAfter(last); day = day.plusDays(1), from = 0) {
            if (!firesOn(day)) {
                continue;
            }
            for (int minute = firstMinuteFrom(from); minute >= 0; minute = firstMinuteFrom(minute + 1)) {
                Instant at = LocalTimes.instant(day.atTime(LocalTime.of(minute / 60, minute % 60)), zone);
                if (at.isAfter(after)) {
                    return Optional.of(at);
                }
            }
        }
        return Optional.empty();
    }

    /** {@link #firstMinuteFrom} for a rule that fires once a day, at {@code time}. */
    static int once(LocalTime time, int minuteOfDay) {
        int minute = time.getHour() * 60 + time.getMinute();
        return minuteOfDay <= minute ? minute : -1;
    }

    /** {@code time} as the canonical {@code HH:MM}. */
    static String clock(LocalTime time) {
        return String.format("%02d:%02d", time.getHour(), time.getMinute());
    }

    /**
     * {@code text} as a time of day {@code H:MM} or {@code HH:MM}.
     *
     * @throws IllegalArgumentException if it is not one
     */
    static LocalTime timeOfDay(String text) {
        LocalTime time = LocalTimes.timeOfDay(text, false);
        if (time == null) {
            throw new IllegalArgumentException("'" + text
                    + "' is not a time of day (expected: H:MM or HH:MM, 0:00 to 23:59)");
        }
        return time;
    }
}
