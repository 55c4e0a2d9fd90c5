package dev.cim.server.chat.session;

import com.google.protobuf.ByteString;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.server.store.StoreFullException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counts the parts of one message's delivery toward its receipt: each recipient session on this node
 * is a part (done when the session acknowledges it, or when it is stored because the session closed
 * first), and so is each other node it was relayed to (done when that node says its sessions are
 * done), or the inbox it was stored in. When the last part is done, the outcome goes to
 * {@link Outcome#done}: to the sender's session as a receipt, or to whatever released a scheduled
 * message.
 *
 * <p>Parts are done on many threads (the recipients' I/O threads, storage threads, the node bus);
 * each part is done exactly once by its owner. The count of open parts and whether the tracker is
 * sealed share one word with the sessions that acknowledged it, changed by compare-and-set: a
 * message's three steps (a part expected, the tracker sealed, the part done) are three
 * compare-and-sets, where a monitor cost two atomic steps each.
 */
public final class Tracker {

    /** Where the outcome of a tracked message goes. */
    public interface Outcome {
        /**
         * @param sessions how many sessions acknowledged it
         * @param stored   true when some part of it went to an inbox
         * @param failure  why the message could not be delivered or stored, or null
         */
        void done(Tracker tracker, int sessions, boolean stored, Failure failure);
    }

    /**
     * Why a message reached nobody.
     *
     * @param code   the error code for the sender
     * @param reason one line for the sender
     */
    public record Failure(ErrorReply.Code code, String reason) {

        /**
         * A store failed with {@code e}: "full" is final ({@link ErrorReply.Code#INTERNAL}, the
         * operator must make room); anything else (Redis unreachable, failing over) is
         * {@link ErrorReply.Code#TRY_AGAIN}, and the client sends the message again.
         *
         * @param notDone what was not done, e.g. "message not sent"
         */
        public static Failure ofStore(RuntimeException e, String notDone) {
            String what = StoreFullException.describe(e);
            return StoreFullException.isFull(e) ? new Failure(ErrorReply.Code.INTERNAL, notDone + ": " + what)
                    : new Failure(ErrorReply.Code.TRY_AGAIN, notDone + ": " + what + "; the client sends it again");
        }

        /** Refused because an earlier message of the same client to {@code recipient} must be sent again first. */
        public static Failure behindRetry(String recipient) {
            return new Failure(ErrorReply.Code.TRY_AGAIN, "not sent yet: an earlier message to " + recipient
                    + " is to be sent again first");
        }

        /** True when the client is to send the message again. */
        public boolean retryable() {
            return code == ErrorReply.Code.TRY_AGAIN;
        }
    }

    /** Set in {@link #state} until {@link #seal()}; the bits below count the parts not yet done. */
    private static final long OPEN = 1L << 30;
    private static final long PARTS = OPEN - 1;
    /** One session that acknowledged: {@link #state}'s upper half counts them. */
    private static final long SESSION = 1L << 32;
    private static final VarHandle STATE;
    private static final VarHandle FAILURE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(Tracker.class, "state", long.class);
            FAILURE = lookup.findVarHandle(Tracker.class, "failure", Failure.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Outcome outcome;
    private final long sequence;
    private final ByteString messageId;
    private final String recipient;
    /**
     * The sessions that acknowledged it (upper half), {@link #OPEN} until sealed, and the parts not
     * done: nothing in the lower half once finished.
     */
    private volatile long state = OPEN;
    private volatile boolean stored;
    private volatile Failure failure;

    /**
     * @param sequence  the sender's sequence number for the message (its request id)
     * @param messageId the message's id, in the UTF-8 bytes its receipt carries
     * @param recipient a user name or "everyone"
     */
    public Tracker(long sequence, ByteString messageId, String recipient, Outcome outcome) {
        this.sequence = sequence;
        this.messageId = messageId;
        this.recipient = recipient;
        this.outcome = outcome;
    }

    public long sequence() {
        return sequence;
    }

    public ByteString messageId() {
        return messageId;
    }

    public String recipient() {
        return recipient;
    }

    /**
     * One more part to wait for: before {@link #seal()}, or after it by the owner of a part not yet
     * done (which keeps the outcome from coming meanwhile).
     */
    public void expect() {
        for (long s = state; ; s = state) {
            if ((s & (OPEN | PARTS)) == 0) {
                throw new IllegalStateException("tracker of " + messageId.toStringUtf8() + " has finished (expected: expect() while a part is open)");
            }
            if (STATE.compareAndSet(this, s, s + 1)) {
                return;
            }
        }
    }

    /** No more parts will be added: the outcome comes once those added are done (at once if none). */
    public void seal() {
        for (long s = state; (s & OPEN) != 0; s = state) {
            if (STATE.compareAndSet(this, s, s & ~OPEN)) {
                if ((s & PARTS) == 0) {
                    finish(s);
                }
                return;
            }
        }
    }

    /** A session acknowledged it. */
    public void delivered() {
        done(1, false, null);
    }

    /** A part was stored in an inbox (its session closed first, or the recipient was offline). */
    public void stored() {
        done(0, true, null);
    }

    /** Another node finished its part: {@code sessions} acknowledged, and some of it was stored. */
    public void remote(int acknowledged, boolean someStored) {
        done(acknowledged, someStored, null);
    }

    /** A part could not be delivered or stored. */
    public void failed(Failure why) {
        done(0, false, why);
    }

    /** A part reached nobody and needs nothing more (a relay to a node where nobody was). */
    public void nobody() {
        done(0, false, null);
    }

    /**
     * A part is done: counted off with the sessions it adds in one compare-and-set, after what else it
     * adds is set, so whichever thread counts off the last part sees every part's.
     */
    private void done(int acknowledged, boolean wasStored, Failure why) {
        if (wasStored) {
            stored = true;
        }
        if (why != null) {
            FAILURE.compareAndSet(this, null, why);
        }
        for (long s = state; ; s = state) {
            if ((s & PARTS) == 0) {
                throw new IllegalStateException("tracker of " + messageId.toStringUtf8() + ": a part done twice (parts 0)");
            }
            long next = s - 1 + acknowledged * SESSION;
            if (STATE.compareAndSet(this, s, next)) {
                if ((next & (OPEN | PARTS)) == 0) {
                    finish(next);
                }
                return;
            }
        }
    }

    private void finish(long last) {
        outcome.done(this, (int) (last >>> 32), stored, failure);
    }
}
