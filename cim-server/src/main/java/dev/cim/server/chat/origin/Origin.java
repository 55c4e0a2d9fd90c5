package dev.cim.server.chat.origin;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.MessageIds;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.Receipt;
import dev.cim.server.chat.routing.RouteGate;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.Tracker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

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
 * <p>Thread-safe: requests arrive on the sender's I/O thread, outcomes on many threads. The
 * unresolved numbers are a ring of bits ({@link PendingSequences}) under the origin's lock rather
 * than a concurrent map: each message adds and removes one, and a lock taken by one thread at a time
 * costs less than a concurrent map's boxed key and node.
 */
public final class Origin {

    private static final VarHandle TO_WRITE;

    static {
        try {
            TO_WRITE = MethodHandles.lookup().findVarHandle(Origin.class, "toWrite", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Answers kept for repeats; a repeat of an older one is answered "handled earlier". */
    private static final int RECENT = 256;
    /** Messages to be sent again an origin may have; past that a store failure is final for it. */
    private static final int MAX_RETRYING = 4096;

    private final String user;
    private final long origin;
    /** Keeps this client's messages to one recipient in order, across its connections. */
    private final RouteGate gate = new RouteGate();
    private final AtomicLong routed;
    /** The unresolved request numbers; guarded by {@code this}. */
    private final PendingSequences pending = new PendingSequences();
    /**
     * Request numbers refused with {@code TRY_AGAIN} (the storage failing over) and not yet sent
     * again: routed again when they come, and unresolved meanwhile; guarded by {@code this}. Made at
     * the first such refusal: most origins never have one.
     */
    private TreeSet<Long> retrying;
    private long[] recentIds;
    /** The answer to each recent id; null for a plain delivery, whose session count is kept instead. */
    private Envelope[] recentAnswers;
    private int[] recentSessions;
    private volatile Session current;
    /** On the writer's list ({@link #moved}), to be looked at by its next write. */
    private volatile boolean toWrite;
    private final Consumer<Origin> moved;
    private volatile long lastUsedNanos;
    private long persisted;

    /**
     * @param watermark the highest request number known to be resolved (from Redis), 0 for a new origin
     * @param moved     told (once until {@link #written} is called) when this origin routes a number
     *                  above what was last written: the writer's list of origins to look at
     */
    Origin(String user, long origin, long watermark, long nowNanos, Consumer<Origin> moved) {
        this.user = user;
        this.origin = origin;
        this.routed = new AtomicLong(watermark);
        this.persisted = watermark;
        this.lastUsedNanos = nowNanos;
        this.moved = moved;
    }

    public String user() {
        return user;
    }

    /** The origin's number: the first half of its messages' ids ({@link MessageIds}). */
    public long id() {
        return origin;
    }

    /** Keeps this client's messages to one recipient in order, across its connections. */
    public RouteGate gate() {
        return gate;
    }

    /** The session now speaking for this origin: where receipts go. */
    public Session current() {
        return current;
    }

    /**
     * {@code session} speaks for this origin from now on.
     *
     * @return the session that did before, or null
     */
    Session attach(Session session, long nowNanos) {
        Session previous = current;
        current = session;
        lastUsedNanos = nowNanos;
        return previous;
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
    public boolean claim(long sequence) {
        while (true) {
            long last = routed.get();
            if (sequence <= last) {
                return retried(sequence);
            }
            if (routed.compareAndSet(last, sequence)) {
                if (!toWrite) {
                    toBeWritten();
                }
                return true;
            }
        }
    }

    private synchronized boolean retried(long sequence) {
        return retrying != null && retrying.remove(sequence);
    }

    /**
     * Request {@code sequence} to {@code recipient} was refused for now (the storage failing over):
     * it stays unresolved and is routed again when the client sends it again; this client's later
     * messages to {@code recipient} wait for it ({@link RouteGate#retry}).
     *
     * @return false when this origin has too many such already: the refusal is final instead
     */
    public boolean retry(long sequence, String recipient) {
        synchronized (this) {
            pending.remove(sequence);
            if (retrying == null) {
                retrying = new TreeSet<>();
            }
            if (retrying.size() >= MAX_RETRYING) {
                return false;
            }
            retrying.add(sequence);
        }
        gate.retry(recipient, sequence);
        return true;
    }

    /** A message being routed; its tracker stays here until resolved. */
    public synchronized void pending(Tracker tracker) {
        pending.add(tracker.sequence());
    }

    /** True while request {@code sequence} is routed and not resolved: its receipt is still to come. */
    public synchronized boolean isPending(long sequence) {
        return pending.contains(sequence);
    }

    /** How many messages of this origin are routed and not resolved. */
    public synchronized int pendingCount() {
        return pending.size();
    }

    /** Request {@code sequence} was answered with {@code answer}: kept for a repeat. */
    public synchronized void answered(long sequence, Envelope answer) {
        int slot = resolved(sequence); // first: it makes the arrays on first use
        recentAnswers[slot] = answer;
    }

    /**
     * Request {@code sequence} was delivered to {@code sessions} sessions: kept for a repeat, as a
     * count rather than a receipt, since the common answer goes out in a batch of them (Receipts).
     */
    public synchronized void delivered(long sequence, int sessions) {
        int slot = resolved(sequence);
        recentAnswers[slot] = null;
        recentSessions[slot] = sessions;
    }

    /** Forgets {@code sequence} as pending; returns its slot among the recent answers. */
    private int resolved(long sequence) {
        pending.remove(sequence);
        if (recentIds == null) {
            recentIds = new long[RECENT];
            recentAnswers = new Envelope[RECENT];
            recentSessions = new int[RECENT];
        }
        int slot = (int) Math.floorMod(sequence, (long) RECENT);
        recentIds[slot] = sequence;
        return slot;
    }

    /** The answer given to request {@code sequence}, if it is among the last kept; else null. */
    public synchronized Envelope answerOf(long sequence) {
        if (recentIds == null) {
            return null;
        }
        int slot = (int) Math.floorMod(sequence, (long) RECENT);
        if (recentIds[slot] != sequence) {
            return null;
        }
        Envelope answer = recentAnswers[slot];
        return answer != null ? answer : Envelopes.receipt(sequence, Receipt.Outcome.DELIVERED,
                MessageIds.of(origin, sequence), recentSessions[slot], "", false);
    }

    /** Every message at or below this number is resolved: what another node may trust. */
    public synchronized long watermark() {
        long watermark = routed.get();
        if (pending.size() > 0) {
            watermark = Math.min(watermark, pending.lowest() - 1);
        }
        if (retrying != null && !retrying.isEmpty()) {
            watermark = Math.min(watermark, retrying.first() - 1);
        }
        return watermark;
    }

    /**
     * The watermark if it moved since it was last written, else -1. The watermark is never above the
     * highest number routed, so an origin that routed nothing since the last write answers without
     * looking at its unresolved messages.
     */
    synchronized long watermarkToPersist() {
        if (!behind()) {
            return -1;
        }
        long watermark = watermark();
        return watermark > persisted ? watermark : -1;
    }

    /** {@code watermark} is written. */
    synchronized void persisted(long watermark) {
        persisted = Math.max(persisted, watermark);
    }

    /**
     * The writer took this origin from its list, and wrote what it could: until this origin routes
     * more, it is not on the list again, unless its watermark may still move (messages routed and
     * not yet resolved, or the write failed).
     */
    void written() {
        toWrite = false; // first: a number claimed from now on puts the origin back (Dekker's order with claim)
        if (behind()) {
            toBeWritten();
        }
    }

    /** True when this origin routed a number above the watermark last written: its watermark may move. */
    private synchronized boolean behind() {
        return routed.get() > persisted;
    }

    /** Puts this origin on the writer's list, once. */
    private void toBeWritten() {
        if (TO_WRITE.compareAndSet(this, false, true)) {
            moved.accept(this);
        }
    }

    /**
     * True when nothing refers to this origin any more and it has been unused for {@code idleNanos}.
     * Messages still to be sent again do not keep it: the watermark written stops below them, so a
     * client that comes back has them routed anew.
     */
    boolean isIdle(long nowNanos, long idleNanos) {
        return current == null && pendingCount() == 0 && nowNanos - lastUsedNanos > idleNanos;
    }

    @Override
    public String toString() {
        return user + "/" + MessageIds.origin(origin);
    }
}
