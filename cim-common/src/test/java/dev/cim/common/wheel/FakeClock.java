package dev.cim.common.wheel;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/** A {@link TimeSource} that moves only when told to. Starts at an odd nano value on purpose. */
final class FakeClock implements TimeSource {

    private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
    private final long start;
    private final AtomicLong nanos;

    FakeClock(long startNanos) {
        this.start = startNanos;
        this.nanos = new AtomicLong(startNanos);
    }

    FakeClock() {
        this(-7_123_456_789L);
    }

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    @Override
    public Instant instant() {
        return EPOCH.plusNanos(nanos.get() - start);
    }

    void advance(Duration by) {
        advanceNanos(by.toNanos());
    }

    void advanceNanos(long by) {
        nanos.addAndGet(by);
    }
}
