package dev.cim.server.chat;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * How fast each user may send on this node: a token bucket per user, refilled at
 * {@code perSecond} and holding at most {@code burst}. Each message sent or scheduled takes a token;
 * with none left the request is refused with the time until the next, never dropped silently. A
 * user's bucket outlives their sessions (reconnecting does not refill it) and is forgotten once it
 * is full again, so memory follows the users who sent lately.
 *
 * <p>Thread-safe: a user's sessions may sit on different I/O threads. A bucket is only read and
 * changed inside the map's atomic per-key steps.
 */
final class SendRate {

    private static final long NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);

    private final double perNano;
    private final int burst;
    private final LongSupplier nanoTime;
    private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

    SendRate(int perSecond, int burst, LongSupplier nanoTime) {
        if (perSecond < 1 || burst < 1) {
            throw new IllegalArgumentException("send rate " + perSecond + "/s, burst " + burst + " (expected: both >= 1)");
        }
        this.perNano = perSecond / (double) NANOS_PER_SECOND;
        this.burst = burst;
        this.nanoTime = nanoTime;
    }

    /** Takes a token for {@code user}: 0 when granted, else the nanoseconds until one will be there. */
    long take(String user) {
        long now = nanoTime.getAsLong();
        long[] wait = new long[1];
        // One atomic step per user with forgetIdle's: a bucket being forgotten is never taken from
        // (which would hand out a fresh full bucket next, burst + 1 in all).
        buckets.compute(user, (u, bucket) -> {
            Bucket b = bucket != null ? bucket : new Bucket(burst, now);
            b.refill(now, perNano, burst);
            if (b.tokens >= 1) {
                b.tokens--;
            } else {
                wait[0] = (long) Math.ceil((1 - b.tokens) / perNano);
            }
            return b;
        });
        return wait[0];
    }

    /** Forgets the buckets that are full again: their users have not sent for a while. */
    void forgetIdle() {
        long now = nanoTime.getAsLong();
        for (String user : buckets.keySet()) {
            buckets.computeIfPresent(user, (u, bucket) -> {
                bucket.refill(now, perNano, burst);
                return bucket.tokens >= burst ? null : bucket;
            });
        }
    }

    /** Users with a bucket (for tests and metrics). */
    int size() {
        return buckets.size();
    }

    private static final class Bucket {
        double tokens;
        long refilledAt;

        Bucket(double tokens, long now) {
            this.tokens = tokens;
            this.refilledAt = now;
        }

        void refill(long now, double perNano, int burst) {
            long elapsed = now - refilledAt;
            if (elapsed > 0) {
                tokens = Math.min(burst, tokens + elapsed * perNano);
                refilledAt = now;
            }
        }
    }
}
