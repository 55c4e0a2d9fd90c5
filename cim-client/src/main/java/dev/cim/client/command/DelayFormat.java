package dev.cim.client.command;

import java.time.Duration;

/** Writes a delay the way {@link DelayParser} reads it: {@code 1h30m}, {@code 5s}, {@code 1s500ms}. */
public final class DelayFormat {

    private DelayFormat() {
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
