package dev.cim.loadgen;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the durations of the command line: a whole number and a unit, {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}. */
final class Durations {

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

    private Durations() {
    }

    /**
     * @throws IllegalArgumentException for anything else, saying what was expected
     */
    static Duration parse(String text) {
        Matcher m = DURATION.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (expected: a whole number and "
                    + "a unit, ms, s, m or h, e.g. 30s)");
        }
        long amount = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
    }
}
