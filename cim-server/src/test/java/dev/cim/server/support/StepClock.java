package dev.cim.server.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** Time that moves only when a test moves it ({@link MutableClock} runs with the real one). */
public final class StepClock extends Clock {

    private volatile Instant now;

    public StepClock(Instant start) {
        this.now = start;
    }

    /** At 2026-11-23T10:00:00Z. */
    public StepClock() {
        this(Instant.parse("2026-11-23T10:00:00Z"));
    }

    /** Moves this clock {@code by} forward. */
    public synchronized void advance(Duration by) {
        now = now.plus(by);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
