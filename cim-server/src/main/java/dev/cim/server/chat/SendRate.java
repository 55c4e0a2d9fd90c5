package dev.cim.server.chat;

import java.util.Map;
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
 * <p>Thread-safe: a user's sessions may sit on different I/O threads. A bucket is read and changed
 * under its own lock (uncontended: a user's sends come from their sessions), found with a plain
 * lookup; the map's atomic steps only add and remove buckets.
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
        while (true) {
            Bucket bucket = buckets.get(user);
            if (bucket == null) {
                bucket = buckets.computeIfAbsent(user, u -> new Bucket(burst, now));
            }
            synchronized (bucket) {
                if (!bucket.forgotten) {
                    return bucket.take(now, perNano, burst);
                }
            }
            // forgotten meanwhile (it was full): taken from the one that replaces it, never from it,
            // which would hand out a fresh full bucket next (burst + 1 in all)
        }
    }

    /** Forgets the buckets that are full again: their users have not sent for a while. */
    void forgetIdle() {
        long now = nanoTime.getAsLong();
        for (Map.Entry<String, Bucket> entry : buckets.entrySet()) {
            Bucket bucket = entry.getValue();
            synchronized (bucket) {
                bucket.refill(now, perNano, burst);
                if (bucket.tokens >= burst) {
                    bucket.forgotten = true;
                    buckets.remove(entry.getKey(), bucket);
                }
            }
        }
    }

    /** Users with a bucket (for tests and metrics). */
    int size() {
        return buckets.size();
    }

    /** A user's tokens: read and changed under its own lock. */
    private static final class Bucket {
        double tokens;
        long refilledAt;
        /** Out of the map: taken from no more. */
        boolean forgotten;

        Bucket(double tokens, long now) {
            this.tokens = tokens;
            this.refilledAt = now;
        }

        /** Takes a token: 0 when there was one, else the nanoseconds until there will be. */
        long take(long now, double perNano, int burst) {
            refill(now, perNano, burst);
            if (tokens >= 1) {
                tokens--;
                return 0;
            }
            return (long) Math.ceil((1 - tokens) / perNano);
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
