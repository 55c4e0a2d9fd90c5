package dev.cim.common.schedule;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the delay of {@code :delay}: whole or decimal seconds ({@code 5}, {@code 1.5}) or amounts
 * with units, largest first ({@code 500ms}, {@code 90s}, {@code 2m}, {@code 1h30m}, {@code 1d12h}).
 * Units: {@code d}, {@code h}, {@code m}, {@code s}, {@code ms}. Precision is a millisecond.
 */
public final class DelayParser {

    public static final String EXPECTED = "expected seconds (5, 1.5) or amounts with units (500ms, 90s, 2m, 1h30m)";

    private static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d+)?");
    private static final Pattern AMOUNT = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|d|h|m|s)");
    private static final Pattern AMOUNTS = Pattern.compile("(?:\\d+(?:\\.\\d+)?(?:ms|d|h|m|s))+");

    private DelayParser() {
    }

    /**
     * @throws IllegalArgumentException with a one-line message saying what was expected
     */
    public static Duration parse(String token) {
        if (token.startsWith("-")) {
            throw new IllegalArgumentException("the delay must not be negative: " + token);
        }
        if (NUMBER.matcher(token).matches()) {
            return millis(new BigDecimal(token).multiply(BigDecimal.valueOf(1000)), token);
        }
        if (!AMOUNTS.matcher(token).matches()) {
            throw new IllegalArgumentException("'" + token + "' is not a delay: " + EXPECTED);
        }
        BigDecimal totalMillis = BigDecimal.ZERO;
        int previous = -1;
        Matcher amount = AMOUNT.matcher(token);
        while (amount.find()) {
            Unit unit = Unit.of(amount.group(2));
            if (unit.ordinal() <= previous) {
                throw new IllegalArgumentException("'" + token + "' is not a delay: units must go from largest to smallest, each once ("
                        + EXPECTED + ")");
            }
            previous = unit.ordinal();
            totalMillis = totalMillis.add(new BigDecimal(amount.group(1)).multiply(BigDecimal.valueOf(unit.millis)));
        }
        return millis(totalMillis, token);
    }

    private static Duration millis(BigDecimal millis, String token) {
        if (millis.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 1_000_000)) > 0) {
            throw new IllegalArgumentException("the delay " + token + " is far too long");
        }
        if (millis.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException("the delay " + token + " is finer than a millisecond");
        }
        return Duration.ofMillis(millis.longValueExact());
    }

    /** Units from largest to smallest: amounts must come in this order. */
    enum Unit {
        DAYS("d", 86_400_000L), HOURS("h", 3_600_000L), MINUTES("m", 60_000L), SECONDS("s", 1_000L), MILLIS("ms", 1L);

        final String symbol;
        final long millis;

        Unit(String symbol, long millis) {
            this.symbol = symbol;
            this.millis = millis;
        }

        static Unit of(String symbol) {
            for (Unit unit : values()) {
                if (unit.symbol.equals(symbol)) {
                    return unit;
                }
            }
            throw new IllegalArgumentException(symbol); // the pattern admits only the symbols above
        }
    }
}
