package dev.cim.common.wheel;

import java.time.Instant;

/**
 * Where a {@link DelayScheduler} reads time. Production code uses {@link #system()}; tests pass a
 * fake one and move it forward themselves, so nothing in them sleeps.
 *
 * <p>{@link #nanoTime()} drives the wheel and must be monotonic. {@link #instant()} is only used to
 * show wall-clock due times to people.
 */
public interface TimeSource {

    /** A monotonic reading in nanoseconds, comparable only with other readings of this source. */
    long nanoTime();

    /** The current wall-clock time, for display. */
    Instant instant();

    /** The JVM's clocks: {@link System#nanoTime()} and {@link Instant#now()}. */
    static TimeSource system() {
        return SystemTimeSource.INSTANCE;
    }
}

/** The JVM's clocks; an enum so there is exactly one. */
enum SystemTimeSource implements TimeSource {
    INSTANCE;

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Instant instant() {
        return Instant.now();
    }
}
