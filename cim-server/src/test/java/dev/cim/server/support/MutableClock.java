package dev.cim.server.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that runs with the real one, plus an offset a test moves forward: time travel without waiting. */
public final class MutableClock extends Clock {

    private final AtomicLong offsetMillis = new AtomicLong();

    /** Moves this clock {@code by} ahead of the real one (cumulatively). */
    public void advance(Duration by) {
        offsetMillis.addAndGet(by.toMillis());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a test clock in UTC only");
    }

    @Override
    public long millis() {
        return System.currentTimeMillis() + offsetMillis.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }
}
