package dev.cim.client.core;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * How long to wait before the next connection attempt: exponential with "equal jitter". The n-th
 * wait since the last success is drawn uniformly from [b/2, b] with b = min(max, initial * 2^n), so
 * waits grow, never fall to zero, and clients that lost the same server at the same moment spread
 * over half of each window instead of reconnecting in lock-step.
 */
final class Backoff {

    private final long initialNanos;
    private final long maxNanos;
    private final RandomGenerator random;
    private int failures;

    Backoff(Duration initial, Duration max, RandomGenerator random) {
        if (initial.isNegative() || initial.isZero()) {
            throw new IllegalArgumentException("initial backoff: " + initial + " (expected: > 0)");
        }
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("max backoff: " + max + " (expected: >= the initial " + initial + ")");
        }
        this.initialNanos = initial.toNanos();
        this.maxNanos = max.toNanos();
        this.random = random;
    }

    /** The wait before the next attempt; each call counts one more failure. */
    Duration next() {
        // initial << failures stays a positive long only while failures < the leading zeros of initial;
        // past that the shift would wrap (to 0 for some initials: a reconnection loop with no wait).
        long base = failures < Long.numberOfLeadingZeros(initialNanos)
                ? Math.min(maxNanos, initialNanos << failures)
                : maxNanos;
        failures++;
        long half = base / 2;
        return Duration.ofNanos(half + (long) (random.nextDouble() * (base - half)));
    }

    /** A uniform wait in [0, spread], for spreading reconnections after the server asked for them. */
    Duration spread(Duration spread) {
        return Duration.ofNanos((long) (random.nextDouble() * Math.max(0, spread.toNanos())));
    }

    /** Connected: the next failure starts from the initial wait again. */
    void reset() {
        failures = 0;
    }
}
