package dev.cim.common.schedule;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fixed interval, {@code 90s} or {@code 2h}: occurrences at {@code start + k × interval} for
 * k = 1, 2, ... in absolute time, whatever the zone's clocks do ({@code 1d} is 24 hours).
 */
record Interval(Duration interval) implements Recurrence {

    private static final Duration MIN = Duration.ofSeconds(1);
    private static final Duration MAX = Duration.ofDays(400);

    private static final Pattern AMOUNT = Pattern.compile("(\\d+)([smhdw])");
    private static final String UNITS = "smhdw";
    private static final List<ChronoUnit> UNIT_VALUES =
            List.of(ChronoUnit.SECONDS, ChronoUnit.MINUTES, ChronoUnit.HOURS, ChronoUnit.DAYS, ChronoUnit.WEEKS);

    Interval {
        assert interval.compareTo(MIN) >= 0 && interval.compareTo(MAX) <= 0 && interval.toNanosPart() == 0 : interval;
    }

    /**
     * {@code text} as an amount such as {@code 90s}, {@code 5m}, {@code 2h}, {@code 1d} or
     * {@code 1w} (lower case): a whole number and a unit; null if it is not one.
     *
     * @param what the amount's name in the message
     * @throws IllegalArgumentException if the amount is out of the range 1s to 400d
     */
    static Duration amount(String text, String what) {
        Matcher m = AMOUNT.matcher(text);
        if (!m.matches()) {
            return null;
        }
        String digits = m.group(1).replaceFirst("^0+(?=.)", "");
        ChronoUnit unit = UNIT_VALUES.get(UNITS.indexOf(m.group(2)));
        // 12 digits of weeks still fit in a Duration; anything longer is out of range anyway
        Duration amount = digits.length() > 12 ? ChronoUnit.FOREVER.getDuration()
                : unit.getDuration().multipliedBy(Long.parseLong(digits));
        if (amount.compareTo(MIN) < 0 || amount.compareTo(MAX) > 0) {
            throw new IllegalArgumentException(what + " '" + text + "' is out of range (expected: 1s to 400d)");
        }
        return amount;
    }

    @Override
    public Optional<Instant> next(Instant after, ZoneId zone, Instant seriesStart) {
        Objects.requireNonNull(after, "after (expected: an instant)");
        Objects.requireNonNull(seriesStart, "seriesStart (expected: the instant the series counts from)");
        long k = after.isBefore(seriesStart) ? 1 : Duration.between(seriesStart, after).dividedBy(interval) + 1;
        Duration offset = interval.multipliedBy(k);
        if (offset.compareTo(Duration.between(seriesStart, Instant.MAX)) > 0) {
            return Optional.empty();
        }
        return Optional.of(seriesStart.plus(offset));
    }

    @Override
    public String describe() {
        return "every " + spec();
    }

    /** The interval in the largest unit that divides it: {@code 60s} is {@code 1m}, {@code 14d} is {@code 2w}. */
    @Override
    public String spec() {
        for (int i = UNIT_VALUES.size() - 1; ; i--) {
            long unitSeconds = UNIT_VALUES.get(i).getDuration().getSeconds();
            if (interval.getSeconds() % unitSeconds == 0) {
                return interval.getSeconds() / unitSeconds + UNITS.substring(i, i + 1);
            }
        }
    }
}
