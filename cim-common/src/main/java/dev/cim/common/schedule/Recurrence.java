package dev.cim.common.schedule;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Optional;

/**
 * When something repeats, as a person types it: {@code 2h}, {@code weekday 9:00}, {@code 15th 12:00},
 * {@code 0 9 * * 1-5}. Immutable; two rules are equal when they are the same rule in canonical form.
 *
 * <h3>Grammar</h3>
 * A spec is trimmed, read in any case, and split on runs of spaces. One word is an interval, two a
 * calendar rule, five a cron expression; nothing else is a spec.
 * <pre>
 * interval  = number unit                  10s 90s 5m 2h 1d 1w; from 1s to 400d
 * unit      = "s" | "m" | "h" | "d" | "w"  1d is 24 hours, 1w 7 days
 * weekly    = days " " time                weekday 9:00, mon,thu 17:30
 * days      = "weekday" | "weekend" | "daily" | day ("," day)*
 * day       = "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun"
 *           | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday"
 * monthly   = ordinal " " time | "last " time    15th 12:00, last 18:00
 * ordinal   = 1 to 31, then "st" | "nd" | "rd" | "th" (any of the four)
 * time      = H:MM or HH:MM, 0:00 to 23:59
 * cron      = minute hour day-of-month month day-of-week     0 9 * * 1-5
 * field     = item ("," item)*
 * item      = value | value "-" value | ("*" | value "-" value) "/" step
 * value     = a number, or a name where the field has them; one or two digits
 * </pre>
 * Cron fields: minute 0-59, hour 0-23, day-of-month 1-31, month 1-12 or {@code jan}-{@code dec},
 * day-of-week 0-7 (0 and 7 are Sunday) or {@code sun}-{@code sat}, where {@code sun} at the end of
 * a range is 7 ({@code fri-sun}). A step counts from the low end of its range. As in classic cron,
 * when both day fields are restricted (neither begins with {@code *}), a day matches when either
 * does: {@code 0 9 1 * mon} is 09:00 on the 1st and on every Monday. Not accepted: seconds,
 * {@code @daily} and the like, and Quartz's {@code ?}, {@code L}, {@code W} and {@code #}. Anything
 * not in the grammar is refused with an {@link IllegalArgumentException} whose one-line message
 * says what was expected.
 *
 * <h3>Occurrences</h3>
 * <ul>
 *   <li>An interval repeats from its series' start in absolute time: start + k × interval for
 *       k = 1, 2, ... The start itself is not an occurrence: the first of {@code 2s} is 2 s after
 *       it. Zones do not matter.</li>
 *   <li>The other rules read the wall clock of a zone: a monthly rule on a day the month lacks
 *       fires on the month's last day ({@code 31st} in April on the 30th, so {@code 31st} is
 *       {@code last}). A time the clock skips fires at the jump, a time it shows twice fires once,
 *       at the first pass (the DST rule of {@link LocalTimes}). They do not depend on the start.</li>
 * </ul>
 *
 * <h3>Canonical form</h3>
 * {@link #spec()} is lower case and single-spaced, with times as {@code HH:MM}: intervals in the
 * largest unit that divides them ({@code 60s} is {@code 1m}), days as {@code daily},
 * {@code weekday}, {@code weekend} or a list of three-letter names in week order, ordinals with
 * their English suffix, {@code 31st} as {@code last}, cron as typed. {@code parse(r.spec())} equals
 * {@code r}.
 */
public sealed interface Recurrence permits Interval, CalendarRule {

    /**
     * The rule {@code spec} says, by the grammar above.
     *
     * @throws IllegalArgumentException if {@code spec} is not in the grammar
     */
    static Recurrence parse(String spec) {
        String text = spec == null ? "" : spec.trim().toLowerCase(Locale.ROOT);
        String[] words = text.split("\\s+");
        if (words.length == 5) {
            return Cron.parse(words);
        }
        if (words.length == 2) {
            return Monthly.starts(words[0]) ? Monthly.parse(words[0], words[1]) : Weekly.parse(words[0], words[1]);
        }
        if (words.length > 2) {
            throw new IllegalArgumentException("'" + text + "' has " + words.length
                    + " fields (expected: five cron fields, minute hour day-of-month month day-of-week)");
        }
        Duration interval = Interval.amount(text, "interval");
        if (interval == null) {
            throw new IllegalArgumentException("'" + text + "' is not a recurrence (expected: an interval such as"
                    + " 90s, 5m, 2h, 1d or 1w; weekday, weekend, daily or days such as mon,thu, then H:MM;"
                    + " 1st to 31st or last, then H:MM; or five cron fields such as 0 9 * * 1-5)");
        }
        return new Interval(interval);
    }

    /**
     * The first occurrence strictly after {@code after}, or empty if there is none: only a cron
     * expression whose days never come ({@code 0 0 31 2 *}) has none, found so within a bounded
     * search of eight years.
     *
     * @param zone the zone whose clock a calendar rule or cron reads; intervals ignore it
     * @param seriesStart the instant an interval counts from; the other rules ignore it
     * @throws NullPointerException if {@code after} is null, or what the rule reads of the other two
     */
    Optional<Instant> next(Instant after, ZoneId zone, Instant seriesStart);

    /**
     * The rule for people: {@code every 2s}, {@code every weekday at 09:00},
     * {@code every Monday and Thursday at 17:30}, {@code every month on the 15th at 12:00},
     * {@code cron "0 9 * * 1-5"}.
     */
    String describe();

    /** The rule in canonical form, which {@link #parse} reads back as an equal rule. */
    String spec();
}
