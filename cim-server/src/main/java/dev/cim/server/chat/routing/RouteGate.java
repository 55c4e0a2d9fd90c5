package dev.cim.server.chat.routing;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps one source's messages to one recipient in order when some of them take the slow way. A
 * message whose recipient has no session here goes to the recipient's lane (to be stored, or relayed
 * to the node that has them); if the recipient logs in here meanwhile, the source's next message
 * would find the session at once and overtake it. So while a source has messages on a recipient's
 * lane, its later messages to that recipient take the lane too, and the lane hands them to the
 * session in turn.
 *
 * <p>One per source: a client origin (not a session: a client that reconnects while its old
 * connection's messages are still on a lane must queue behind them, whether or not this node has
 * seen the old connection end), the node bus, the scheduled-message firer. A source routes from one
 * thread at a time ({@link #enter} and {@link #mustQueue}); {@link #leave} is called on the lane.
 */
public final class RouteGate {

    private static final VarHandle QUEUED;
    private static final VarHandle RETRYING;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            QUEUED = lookup.findVarHandle(RouteGate.class, "queued", ConcurrentHashMap.class);
            RETRYING = lookup.findVarHandle(RouteGate.class, "retrying", ConcurrentHashMap.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Per recipient, how many messages of this source are on its lane. Made at the first, as
     * {@link #retrying} is: most sources never need either, and the two empty maps were 128 bytes of
     * every idle connection's heap. Once made, a map stays.
     */
    private volatile ConcurrentHashMap<String, Integer> queued;
    /**
     * Per recipient, the first message of this source refused until it is sent again (the storage
     * failing over, {@code TRY_AGAIN}): the later ones to that recipient are refused too, on arrival
     * and on the lane, so that none overtakes it.
     */
    private volatile ConcurrentHashMap<String, Long> retrying;

    /** True when messages of this source to {@code recipient} are on its lane: later ones must follow. */
    public boolean mustQueue(String recipient) {
        ConcurrentHashMap<String, Integer> q = queued;
        return q != null && !q.isEmpty() && q.containsKey(recipient);
    }

    /** A message of this source goes to {@code recipient}'s lane. */
    public void enter(String recipient) {
        this.<Integer>made(QUEUED).merge(recipient, 1, Integer::sum);
    }

    /** Message {@code sequence} to {@code recipient} is to be sent again; later ones wait for it. */
    public void retry(String recipient, long sequence) {
        this.<Long>made(RETRYING).merge(recipient, sequence, Math::min);
    }

    /**
     * A new message {@code sequence} to {@code recipient} arrives: false when an earlier one is to
     * be sent again first; true otherwise, and when it is that one (or one before it), which lifts the
     * wait.
     */
    public boolean admit(String recipient, long sequence) {
        ConcurrentHashMap<String, Long> retrying = this.retrying;
        if (retrying == null || retrying.isEmpty()) {
            return true;
        }
        Long first = retrying.get(recipient);
        if (first == null) {
            return true;
        }
        if (sequence > first) {
            return false;
        }
        retrying.remove(recipient, first);
        return true;
    }

    /** True when message {@code sequence} to {@code recipient}, already admitted, must wait for an earlier one sent again. */
    public boolean behindRetry(String recipient, long sequence) {
        ConcurrentHashMap<String, Long> retrying = this.retrying;
        if (retrying == null || retrying.isEmpty()) {
            return false;
        }
        Long first = retrying.get(recipient);
        return first != null && sequence > first;
    }

    /** A message of this source to {@code recipient} left its lane. */
    public void leave(String recipient) {
        ConcurrentHashMap<String, Integer> q = queued;
        if (q != null) {
            q.computeIfPresent(recipient, (r, n) -> n == 1 ? null : n - 1);
        }
    }

    /** The map in {@code field}, made by whichever thread gets here first. */
    @SuppressWarnings("unchecked")
    private <V> ConcurrentHashMap<String, V> made(VarHandle field) {
        ConcurrentHashMap<String, V> map = (ConcurrentHashMap<String, V>) field.getVolatile(this);
        if (map != null) {
            return map;
        }
        ConcurrentHashMap<String, V> fresh = new ConcurrentHashMap<>();
        ConcurrentHashMap<String, V> witness = (ConcurrentHashMap<String, V>) field.compareAndExchange(this, null, fresh);
        return witness == null ? fresh : witness;
    }
}
