package dev.cim.server.chat;

import dev.cim.common.protocol.MessageIds;
import dev.cim.common.protocol.proto.Envelope;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What this node knows of one client origin (a client process of one user, see
 * {@link MessageIds}): the highest request number it has routed, the messages routed and not yet
 * resolved, and the answers to the last few, so that a request sent again after a lost connection
 * is never routed twice and is answered with its first outcome.
 *
 * <h3>Why a number is enough</h3>
 * A client numbers its requests in order and sends them in order, and the server handles one
 * connection's requests in order: so a number at or below the highest routed has been seen
 * (Kafka's idempotent producer rests on the same fact). The {@link #watermark()} below which every
 * message is resolved is what other nodes may trust: it is written to Redis behind the traffic (see
 * {@link Origins}), so a client that fails over to another node after this one died re-sends only
 * what was not resolved, and the recipient's client drops an id it has shown already.
 *
 * <p>Thread-safe: requests arrive on the sender's I/O thread, outcomes on many threads.
 */
final class Origin {

    /** Answers kept for repeats; a repeat of an older one is answered "handled earlier". */
    private static final int RECENT = 256;

    final String user;
    final long origin;
    /** Keeps this client's messages to one recipient in order, across its connections. */
    final RouteGate gate = new RouteGate();
    private final AtomicLong routed;
    private final ConcurrentHashMap<Long, Tracker> pending = new ConcurrentHashMap<>();
    private long[] recentIds;
    private Envelope[] recentAnswers;
    private volatile Session current;
    private volatile long lastUsedNanos;
    private long persisted;

    /**
     * @param watermark the highest request number known to be resolved (from Redis), 0 for a new origin
     */
    Origin(String user, long origin, long watermark, long nowNanos) {
        this.user = user;
        this.origin = origin;
        this.routed = new AtomicLong(watermark);
        this.persisted = watermark;
        this.lastUsedNanos = nowNanos;
    }

    /** The session now speaking for this origin: where receipts go. */
    Session current() {
        return current;
    }

    void attach(Session session, long nowNanos) {
        current = session;
        lastUsedNanos = nowNanos;
    }

    /** Forgets {@code session} as the current one, if it is. */
    void detach(Session session, long nowNanos) {
        if (current == session) {
            current = null;
        }
        lastUsedNanos = nowNanos;
    }

    /**
     * Claims request {@code sequence} for routing.
     *
     * @return true when it is new: the caller routes it; false when it was seen before
     */
    boolean claim(long sequence) {
        while (true) {
            long last = routed.get();
            if (sequence <= last) {
                return false;
            }
            if (routed.compareAndSet(last, sequence)) {
                return true;
            }
        }
    }

    /** A message being routed; its tracker stays here until resolved. */
    void pending(Tracker tracker) {
        pending.put(tracker.sequence(), tracker);
    }

    /** True while request {@code sequence} is routed and not resolved: its receipt is still to come. */
    boolean isPending(long sequence) {
        return pending.containsKey(sequence);
    }

    /** How many messages of this origin are routed and not resolved. */
    int pendingCount() {
        return pending.size();
    }

    /** Request {@code sequence} was answered with {@code answer}: kept for a repeat. */
    synchronized void answered(long sequence, Envelope answer) {
        pending.remove(sequence);
        if (recentIds == null) {
            recentIds = new long[RECENT];
            recentAnswers = new Envelope[RECENT];
        }
        int slot = (int) Math.floorMod(sequence, (long) RECENT);
        recentIds[slot] = sequence;
        recentAnswers[slot] = answer;
    }

    /** The answer given to request {@code sequence}, if it is among the last kept; else null. */
    synchronized Envelope answerOf(long sequence) {
        if (recentIds == null) {
            return null;
        }
        int slot = (int) Math.floorMod(sequence, (long) RECENT);
        return recentIds[slot] == sequence ? recentAnswers[slot] : null;
    }

    /** Every message at or below this number is resolved: what another node may trust. */
    long watermark() {
        long watermark = routed.get();
        for (Long sequence : pending.keySet()) {
            watermark = Math.min(watermark, sequence - 1);
        }
        return watermark;
    }

    /** The watermark if it moved since it was last written, else -1. */
    synchronized long watermarkToPersist() {
        long watermark = watermark();
        return watermark > persisted ? watermark : -1;
    }

    /** {@code watermark} is written. */
    synchronized void persisted(long watermark) {
        persisted = Math.max(persisted, watermark);
    }

    /** True when nothing refers to this origin any more and it has been unused for {@code idleNanos}. */
    boolean isIdle(long nowNanos, long idleNanos) {
        return current == null && pending.isEmpty() && nowNanos - lastUsedNanos > idleNanos;
    }

    @Override
    public String toString() {
        return user + "/" + MessageIds.origin(origin);
    }
}
