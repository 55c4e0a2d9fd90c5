package dev.cim.client.console;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;

/**
 * How times read on the console, in the user's zone: the clock time for today ({@code 14:05:10}),
 * with the date otherwise ({@code 2027-03-28 09:00}).
 */
public final class Times {

    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
    static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");
    private static final DateTimeFormatter ZONE_NAME = DateTimeFormatter.ofPattern("zzz", Locale.ENGLISH);

    private final Clock clock;
    private final UserZone zone;

    /**
     * @param clock now
     * @param zone  the user's zone
     */
    public Times(Clock clock, UserZone zone) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.zone = Objects.requireNonNull(zone, "zone");
    }

    /** The user's zone, as it is now. */
    public ZoneId zone() {
        return zone.get();
    }

    /** A time for people, in the user's zone: the clock time when it is today, with the date otherwise. */
    public String when(Instant instant) {
        return when(instant, zone.get());
    }

    /** A time for people on the clock of {@code there}: the clock time when it is today there, with the date otherwise. */
    String when(Instant instant, ZoneId there) {
        ZonedDateTime at = instant.atZone(there);
        return at.toLocalDate().equals(LocalDate.now(clock.withZone(there))) ? TIME.format(at) : DATE_TIME.format(at);
    }

    /** The short name of {@code there} at {@code instant}: {@code CET}, {@code CEST}, {@code JST}. */
    static String zoneName(Instant instant, ZoneId there) {
        return ZONE_NAME.format(instant.atZone(there));
    }

    /** True when the clock of {@code there} shows another time than the user's at {@code instant}. */
    boolean differs(Instant instant, ZoneId there) {
        return !there.getRules().getOffset(instant).equals(zone.get().getRules().getOffset(instant));
    }

    /** From now to {@code instant}. */
    Duration until(Instant instant) {
        return Duration.between(clock.instant(), instant);
    }

    /** Of a date-time: the date in the user's zone. */
    String date(Instant instant) {
        return DATE_TIME.format(instant.atZone(zone.get()));
    }
}
