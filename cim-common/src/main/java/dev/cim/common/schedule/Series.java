package dev.cim.common.schedule;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A rule run from a start, in a zone, until an end or for a number of times: the occurrences one
 * after another, numbered from 1, and which one is due after an outage.
 *
 * <h3>Ends</h3>
 * An occurrence past either end does not exist: one whose index is above {@code times}, or whose
 * instant is after {@code until}. Both count what an outage skipped: a series of {@code times 3}
 * has occurrences 1, 2 and 3, whichever of them fired. The index is an {@code int}, so a series
 * also ends after occurrence {@value Integer#MAX_VALUE} (68 years of {@code 1s}).
 *
 * <h3>Outages</h3>
 * A server that was down owes every occurrence it missed, but sends only the latest:
 * {@link #latestDue} skips to the last occurrence at or before now, and numbers it as if none had
 * been skipped. For an interval that is arithmetic, however long the outage; a calendar rule or cron
 * is walked one occurrence at a time, at most {@value #MAX_STEPS} steps a call (a cron firing
 * every minute, through 694 days). Past that the call answers the occurrence it reached, due still,
 * and the next call goes on from there.
 *
 * @param rule what repeats
 * @param zone the zone whose clock the rule reads (an interval ignores it)
 * @param start when the series begins; never an occurrence itself
 * @param until the last instant an occurrence may have, inclusive; null for no end
 * @param times how many occurrences there are; 0 for no limit
 */
public record Series(Recurrence rule, ZoneId zone, Instant start, Instant until, int times) {

    /** The most occurrences {@link #latestDue} walks in one call. */
    public static final int MAX_STEPS = 1_000_000;

    /**
     * @throws NullPointerException if {@code rule}, {@code zone} or {@code start} is null
     * @throws IllegalArgumentException if {@code until} is before {@code start}, or {@code times}
     *         is negative
     */
    public Series {
        Objects.requireNonNull(rule, "rule (expected: a recurrence)");
        Objects.requireNonNull(zone, "zone (expected: a time zone)");
        Objects.requireNonNull(start, "start (expected: the instant the series begins)");
        if (until != null && until.isBefore(start)) {
            throw new IllegalArgumentException("until " + until + " is before the start " + start
                    + " (expected: an end at or after the start, or none)");
        }
        if (times < 0) {
            throw new IllegalArgumentException("times " + times + " (expected: a count of 1 or more, or 0 for no limit)");
        }
    }

    /** The first occurrence, after the start; empty if the series has none. */
    public Optional<Occurrence> first() {
        return occurrence(1, rule.next(start, zone, start));
    }

    /** The occurrence after {@code previous}; empty if the series ends with {@code previous}. */
    public Optional<Occurrence> after(Occurrence previous) {
        if (previous.index() == Integer.MAX_VALUE) {
            return Optional.empty();
        }
        return occurrence(previous.index() + 1, rule.next(previous.at(), zone, start));
    }

    /**
     * The occurrence to fire when {@code current} is due at {@code now}: the latest at or before
     * {@code now}, which is {@code current} unless an outage let later ones fall due too (see
     * Outages above). Empty if {@code current} itself lies past an end of the series.
     *
     * @param current an occurrence of this series, due: at or before {@code now}
     * @throws IllegalArgumentException if {@code current} is after {@code now}
     */
    public Optional<Occurrence> latestDue(Occurrence current, Instant now) {
        if (current.at().isAfter(now)) {
            throw new IllegalArgumentException("occurrence " + current.index() + " at " + current.at()
                    + " is not due at " + now + " (expected: an occurrence at or before now)");
        }
        if (!exists(current)) {
            return Optional.empty();
        }
        if (rule instanceof Interval interval) {
            Instant end = until != null && until.isBefore(now) ? until : now;
            long last = Duration.between(start, end).dividedBy(interval.interval());
            last = Math.min(last, times == 0 ? Integer.MAX_VALUE : times);
            return Optional.of(last <= current.index() ? current
                    : new Occurrence((int) last, start.plus(interval.interval().multipliedBy(last))));
        }
        Occurrence latest = current;
        for (int step = 0; step < MAX_STEPS; step++) {
            Optional<Occurrence> next = after(latest);
            if (next.isEmpty() || next.get().at().isAfter(now)) {
                break;
            }
            latest = next.get();
        }
        return Optional.of(latest);
    }

    /**
     * The end a person typed: a date, {@code 2026-12-31}, meaning the end of that day in
     * {@code zone} (its last instant: {@code until} is inclusive); a date and time,
     * {@code 2026-12-31T18:00} or {@code 2026-12-31 18:00}, in {@code zone} by the DST rule of
     * {@link LocalTimes}; or an amount ahead of {@code now}, {@code 30d}, {@code 12h} or {@code 2w}
     * (an interval's grammar and range).
     *
     * @throws IllegalArgumentException if {@code text} is none of these, or not after {@code now}
     */
    public static Instant parseUntil(String text, ZoneId zone, Instant now) {
        Objects.requireNonNull(zone, "zone (expected: a time zone)");
        Objects.requireNonNull(now, "now (expected: the current instant)");
        String end = text == null ? "" : text.trim();
        LocalDate day = LocalTimes.date(end);
        LocalDateTime local = LocalTimes.dateTime(end);
        Instant until;
        if (day != null) {
            until = LocalTimes.instant(day.plusDays(1).atStartOfDay(), zone).minusNanos(1);
        } else if (local != null) {
            until = LocalTimes.instant(local, zone);
        } else {
            Duration ahead = Interval.amount(end.toLowerCase(Locale.ROOT), "end");
            if (ahead == null) {
                throw new IllegalArgumentException("'" + end + "' is not an end (expected: a date such as 2026-12-31,"
                        + " a date and time such as 2026-12-31T18:00, or an amount ahead such as 30d, 12h or 2w)");
            }
            return now.plus(ahead);
        }
        if (!until.isAfter(now)) {
            throw new IllegalArgumentException(end + " is in the past (expected: an end ahead)");
        }
        return until;
    }

    private Optional<Occurrence> occurrence(int index, Optional<Instant> at) {
        return at.map(instant -> new Occurrence(index, instant)).filter(this::exists);
    }

    private boolean exists(Occurrence occurrence) {
        return (times == 0 || occurrence.index() <= times) && (until == null || !occurrence.at().isAfter(until));
    }
}
