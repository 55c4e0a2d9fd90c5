package dev.cim.common.schedule;

import java.time.Duration;

/** Writes a delay the way {@link DelayParser} reads it: {@code 1h30m}, {@code 5s}, {@code 1s500ms}. */
public final class DelayFormat {

    private DelayFormat() {
    }

    /**
     * Like {@link #format}, rounded to the second from one second up: for a time people read
     * ("in 3s" rather than "in 2s968ms" when a request took 32 ms).
     */
    public static String rounded(Duration delay) {
        if (delay.compareTo(Duration.ofSeconds(1)) < 0) {
            return format(delay.isNegative() ? Duration.ZERO : delay);
        }
        return format(Duration.ofSeconds((delay.toMillis() + 500) / 1000));
    }

    public static String format(Duration delay) {
        long left = delay.toMillis();
        if (left == 0) {
            return "0s";
        }
        StringBuilder text = new StringBuilder();
        for (DelayParser.Unit unit : DelayParser.Unit.values()) {
            long amount = left / unit.millis;
            if (amount > 0) {
                text.append(amount).append(unit.symbol);
                left -= amount * unit.millis;
            }
        }
        return text.toString();
    }
}
