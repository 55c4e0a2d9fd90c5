package dev.cim.client.core;

import dev.cim.common.protocol.proto.Timing;
import dev.cim.common.schedule.LocalTimes;
import dev.cim.common.schedule.Recurrence;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Optional;

/**
 * When a scheduled message goes, and what happens if it cannot go on time: one of
 * <ul>
 *   <li>{@link #at(Instant)} or {@link #in(Duration)}: once, at a time;</li>
 *   <li>{@link #timeOfDay(String, ZoneId)} or {@link #theirTimeOfDay(String)}: once, the next time a
 *       clock shows a time of day, the clock of a zone or of the recipient's zone (read by the
 *       server from the recipient's account);</li>
 *   <li>{@link #online()}: once, when the recipient next logs in ({@link #online(Instant)}: unless
 *       that is after a deadline, then it is dropped);</li>
 *   <li>{@link #every(String)}: repeatedly, by a rule ({@code 2s}, {@code weekday 9:00},
 *       {@code 1st 10:00}, {@code 0 9 * * 1-5}; see {@link Recurrence}), from now, optionally
 *       {@link #until} a time or a number of {@link #times};</li>
 * </ul>
 * refined by the {@link #zone} wall-clock times are read in (the account's zone, else the
 * server's UTC, when not given) and a late policy, {@link #dropLateAfter}: a message that cannot go
 * out within that long of its time is dropped (the sender told) instead of sent late. Immutable;
 * the refinements return a copy. Checked when made: a rule that does not parse, a zone or a time
 * of day that cannot be read is refused at once with an {@link IllegalArgumentException}.
 */
public final class When {

    /** What kind of time it is. */
    private enum Kind { AT, IN, ONLINE, EVERY, TIME_OF_DAY }

    private final Kind kind;
    /** AT: the time; ONLINE: the deadline or null. */
    private final Instant dueAt;
    /** IN: the delay. */
    private final Duration delay;
    /** EVERY: the rule's canonical spec. */
    private final String every;
    /** TIME_OF_DAY: the time, and "their", a zone id, or "" for the sender's zone. */
    private final String timeOfDay;
    private final String timeOfDayZone;
    private final Instant until;
    private final int times;
    private final ZoneId zone;
    private final Duration lateLimit;

    private When(Kind kind, Instant dueAt, Duration delay, String every, String timeOfDay, String timeOfDayZone,
            Instant until, int times, ZoneId zone, Duration lateLimit) {
        this.kind = kind;
        this.dueAt = dueAt;
        this.delay = delay;
        this.every = every;
        this.timeOfDay = timeOfDay;
        this.timeOfDayZone = timeOfDayZone;
        this.until = until;
        this.times = times;
        this.zone = zone;
        this.lateLimit = lateLimit;
    }

    private static When of(Kind kind, Instant dueAt, Duration delay, String every, String timeOfDay,
            String timeOfDayZone) {
        return new When(kind, dueAt, delay, every, timeOfDay, timeOfDayZone, null, 0, null, Duration.ZERO);
    }

    /** Once, at {@code dueAt} (in the past: as soon as possible). */
    public static When at(Instant dueAt) {
        return of(Kind.AT, Objects.requireNonNull(dueAt, "dueAt"), null, "", "", "");
    }

    /** Once, {@code delay} from when it is asked (by the client's clock). */
    public static When in(Duration delay) {
        return of(Kind.IN, null, Objects.requireNonNull(delay, "delay"), "", "", "");
    }

    /** Once, when the recipient (a user) next logs in, after what their inbox holds; at once if they are online. */
    public static When online() {
        return of(Kind.ONLINE, null, null, "", "", "");
    }

    /** {@link #online()}, dropped (the sender told) if the recipient has not logged in by {@code deadline}. */
    public static When online(Instant deadline) {
        return of(Kind.ONLINE, Objects.requireNonNull(deadline, "deadline"), null, "", "", "");
    }

    /**
     * Repeatedly, by {@code rule}, from now.
     *
     * @throws IllegalArgumentException if {@code rule} is not a rule (the message says what is expected)
     */
    public static When every(String rule) {
        return of(Kind.EVERY, null, null, Recurrence.parse(rule).spec(), "", "");
    }

    /**
     * Once, the next time the clock in {@code zone} shows {@code time} ({@code 9:00},
     * {@code 2026-12-24 18:00}); null zone: the sender's ({@link #zone}, else the account's).
     *
     * @throws IllegalArgumentException if {@code time} cannot be read
     */
    public static When timeOfDay(String time, ZoneId zone) {
        checkTime(time);
        return of(Kind.TIME_OF_DAY, null, null, "", time.strip(), zone != null ? zone.getId() : "");
    }

    /** Once, the next time the recipient's clock (their account's zone, else the sender's) shows {@code time}. */
    public static When theirTimeOfDay(String time) {
        checkTime(time);
        return of(Kind.TIME_OF_DAY, null, null, "", time.strip(), "their");
    }

    /** Reads {@code time} as the server will, for its form only (a date-time in the past is the server's to refuse). */
    private static void checkTime(String time) {
        Objects.requireNonNull(time, "time");
        LocalTimes.nextAt(time, ZoneOffset.UTC, Instant.EPOCH);
    }

    /** A recurring message's last possible occurrence time (inclusive). */
    public When until(Instant end) {
        requireRecurring("until");
        return new When(kind, dueAt, delay, every, timeOfDay, timeOfDayZone, Objects.requireNonNull(end, "end"), times,
                zone, lateLimit);
    }

    /** A recurring message's number of occurrences. */
    public When times(int count) {
        requireRecurring("times");
        if (count < 1) {
            throw new IllegalArgumentException("times " + count + " (expected: 1 or more)");
        }
        return new When(kind, dueAt, delay, every, timeOfDay, timeOfDayZone, until, count, zone, lateLimit);
    }

    /** The zone this message's wall-clock times are read in (its rule's, its time of day's). */
    public When zone(ZoneId wallClock) {
        return new When(kind, dueAt, delay, every, timeOfDay, timeOfDayZone, until, times,
                Objects.requireNonNull(wallClock, "wallClock"), lateLimit);
    }

    /** Drop it, rather than send it late, if it cannot go out within {@code limit} of its time. */
    public When dropLateAfter(Duration limit) {
        if (limit.isNegative() || limit.isZero()) {
            throw new IllegalArgumentException("late limit " + limit + " (expected: more than 0)");
        }
        if (kind == Kind.ONLINE) {
            throw new IllegalArgumentException("a late policy is for a time (expected: at, in, every or a time of "
                    + "day, not online)");
        }
        return new When(kind, dueAt, delay, every, timeOfDay, timeOfDayZone, until, times, zone, limit);
    }

    private void requireRecurring(String what) {
        if (kind != Kind.EVERY) {
            throw new IllegalArgumentException(what + " ends a recurring message (expected: When.every(...)." + what
                    + "(...))");
        }
    }

    /** True for "when the recipient next logs in". */
    public boolean isOnline() {
        return kind == Kind.ONLINE;
    }

    /** The rule of a recurring message, in its canonical form; empty for a message that does not recur. */
    public String every() {
        return every;
    }

    /** A recurring message's last possible occurrence time, if it has one. */
    public Optional<Instant> until() {
        return Optional.ofNullable(until);
    }

    /** A recurring message's number of occurrences; 0 for no limit. */
    public int times() {
        return times;
    }

    /** The zone wall-clock times are read in, when given. */
    public Optional<ZoneId> zone() {
        return Optional.ofNullable(zone);
    }

    /** The late policy; {@link Duration#ZERO} for "sent however late". */
    public Duration lateLimit() {
        return lateLimit;
    }

    /** The due time to ask for at {@code now}: the time, now plus the delay, the deadline (0 for none). */
    long dueAtMillis(Instant now) {
        return switch (kind) {
            case AT -> dueAt.toEpochMilli();
            case IN -> now.plus(delay).toEpochMilli();
            case ONLINE -> dueAt == null ? 0 : dueAt.toEpochMilli();
            case EVERY, TIME_OF_DAY -> 0;
        };
    }

    /** The delay asked for, for the record: the delay, or from now to the time; 0 for the others. */
    long requestedMillis(Instant now) {
        return switch (kind) {
            case AT -> Math.max(0, Duration.between(now, dueAt).toMillis());
            case IN -> Math.max(0, delay.toMillis());
            default -> 0;
        };
    }

    /** What the protocol says of it besides the due time; null for a plain one-off time. */
    Timing timing() {
        if ((kind == Kind.AT || kind == Kind.IN) && zone == null && lateLimit.isZero()) {
            return null;
        }
        Timing.Builder timing = Timing.newBuilder().setWhenOnline(kind == Kind.ONLINE).setEvery(every)
                .setAt(timeOfDay).setAtZone(timeOfDayZone).setTimes(times).setDropLateAfterMillis(lateLimit.toMillis());
        if (until != null) {
            timing.setUntilMillis(until.toEpochMilli());
        }
        if (zone != null) {
            timing.setZone(zone.getId());
        }
        return timing.build();
    }

    /** How a message the server holds was scheduled, from its timing and due time. */
    static When of(Timing timing, Instant dueAt) {
        Kind kind = timing.getWhenOnline() ? Kind.ONLINE : !timing.getEvery().isEmpty() ? Kind.EVERY
                : !timing.getAt().isEmpty() ? Kind.TIME_OF_DAY : Kind.AT;
        Instant due = kind == Kind.ONLINE ? (dueAt.toEpochMilli() == Long.MAX_VALUE ? null : dueAt)
                : kind == Kind.AT ? dueAt : null;
        return new When(kind, due, null, timing.getEvery(), timing.getAt(), timing.getAtZone(),
                timing.getUntilMillis() == 0 ? null : Instant.ofEpochMilli(timing.getUntilMillis()), timing.getTimes(),
                timing.getZone().isEmpty() ? null : ZoneId.of(timing.getZone()),
                Duration.ofMillis(timing.getDropLateAfterMillis()));
    }

    /** "every weekday at 09:00 until ..., 5 times", "when online", "at 09:00 their time": for people. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(switch (kind) {
            case AT -> "at " + dueAt;
            case IN -> "in " + delay;
            case ONLINE -> dueAt == null ? "when online" : "when online until " + dueAt;
            case EVERY -> Recurrence.parse(every).describe();
            case TIME_OF_DAY -> "at " + timeOfDay + ("their".equals(timeOfDayZone) ? " their time"
                    : timeOfDayZone.isEmpty() ? "" : " " + timeOfDayZone);
        });
        if (until != null) {
            text.append(" until ").append(until);
        }
        if (times > 0) {
            text.append(", ").append(times).append(times == 1 ? " time" : " times");
        }
        if (!lateLimit.isZero()) {
            text.append(", dropped if later than ").append(lateLimit);
        }
        return text.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof When w && kind == w.kind && Objects.equals(dueAt, w.dueAt)
                && Objects.equals(delay, w.delay) && every.equals(w.every) && timeOfDay.equals(w.timeOfDay)
                && timeOfDayZone.equals(w.timeOfDayZone) && Objects.equals(until, w.until) && times == w.times
                && Objects.equals(zone, w.zone) && lateLimit.equals(w.lateLimit);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, dueAt, delay, every, timeOfDay, timeOfDayZone, until, times, zone, lateLimit);
    }
}
