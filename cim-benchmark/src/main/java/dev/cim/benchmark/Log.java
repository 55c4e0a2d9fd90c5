package dev.cim.benchmark;

import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/** Progress lines on stderr, so stdout carries only the report. */
final class Log {

    private Log() {
    }

    static void info(String format, Object... args) {
        System.err.println(LocalTime.now().truncatedTo(ChronoUnit.MILLIS) + " "
                + String.format(Locale.ROOT, format, args));
    }
}
