package dev.cim.client.core;

import dev.cim.common.protocol.proto.Envelope;
import io.netty.channel.Channel;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * Where the client's requests go: each is numbered and kept ({@link Requests}) until answered,
 * written at once when a connection is logged in, written again after every login until then (and
 * after the wait the server gives when it refuses one for now), and failed when the client closes or
 * stops. Every method but {@link #request} runs on the client's
 * I/O thread.
 */
final class Outbox {

    /** Bounds on the wait before a request refused for now is written again. */
    static final long MIN_AGAIN_MILLIS = 10;
    static final long MAX_AGAIN_MILLIS = 30_000;

    private final Requests requests;
    private final IoThread io;
    private final Supplier<Channel> channel;
    private boolean closed;
    /** Set when the link stopped (login refused, TLS failed): requests fail at once with it. */
    private CimException refusal;
    /** When the requests refused for now are written again; null when none waits. */
    private ScheduledFuture<?> againTimer;

    /**
     * @param channel the logged-in connection, or null while there is none
     */
    Outbox(Requests requests, IoThread io, Supplier<Channel> channel) {
        this.requests = requests;
        this.io = io;
        this.channel = channel;
    }

    private static CimException closedFailure() {
        return new CimException(CimException.Reason.CLOSED, "the client was closed before it was sent");
    }

    /**
     * A new request, built with its number; any thread. One future, completed by the answer with the
     * value its kind promises (a SEND's with a SendReceipt...): the one the caller gets, so that each
     * request costs no second future.
     *
     * @param internal a request the client makes by itself (its news goes to the listener)
     */
    @SuppressWarnings("unchecked")
    <T> CompletableFuture<T> request(Pending.Kind kind, boolean internal, LongFunction<Envelope> build) {
        CompletableFuture<Object> result = new CompletableFuture<>();
        io.run(() -> result.completeExceptionally(closedFailure()), () -> {
            if (closed) {
                result.completeExceptionally(closedFailure());
                return;
            }
            if (refusal != null) {
                result.completeExceptionally(refusal); // the client has stopped: nothing would ever answer
                return;
            }
            Pending pending;
            try {
                pending = requests.add(kind, internal, build, result);
            } catch (CimException full) {
                result.completeExceptionally(full);
                return;
            }
            Channel now = channel.get();
            if (now != null) {
                pending.written = true;
                now.writeAndFlush(pending.envelope, now.voidPromise());
            }
        });
        return (CompletableFuture<T>) (CompletableFuture<?>) result;
    }

    /**
     * A connection logged in: writes every unanswered request again, in order, under its first number.
     *
     * @return how many of them the program made (not the client by itself)
     */
    int resend(Channel logged) {
        List<Pending> resend = requests.inOrder();
        int made = 0;
        for (Pending pending : resend) {
            pending.clearParts(); // a partial answer from the lost connection is asked for again
            pending.written = true;
            pending.again = false;
            logged.write(pending.envelope, logged.voidPromise());
            if (!pending.internal) {
                made++;
            }
        }
        logged.flush();
        return made;
    }

    /**
     * The server refused {@code pending} for now (its storage failing over): it stays unanswered and
     * is written again, under its number, after {@code afterMillis} (at least {@value #MIN_AGAIN_MILLIS},
     * at most {@value #MAX_AGAIN_MILLIS} ms), together with the others refused so, in order; or with
     * everything at the next login, if the connection goes first.
     */
    void again(Pending pending, long afterMillis) {
        pending.again = true;
        if (againTimer == null && !closed) {
            long wait = Math.min(MAX_AGAIN_MILLIS, Math.max(MIN_AGAIN_MILLIS, afterMillis));
            againTimer = io.loop().schedule(this::writeAgain, wait, TimeUnit.MILLISECONDS);
        }
    }

    private void writeAgain() {
        againTimer = null;
        Channel now = channel.get();
        if (now == null || closed) {
            return; // the next login writes every unanswered request
        }
        for (Pending pending : requests.inOrder()) {
            if (pending.again) {
                pending.again = false;
                now.write(pending.envelope, now.voidPromise());
            }
        }
        now.flush();
    }

    /** The program's requests not yet answered, oldest first. */
    List<Pending> unanswered() {
        return requests.inOrder().stream().filter(p -> !p.internal).toList();
    }

    /**
     * The client closes: every unanswered request fails, with {@link CimException.Reason#UNCONFIRMED}
     * those written to a server (which may have carried them out) and {@link CimException.Reason#CLOSED}
     * the others.
     */
    void close() {
        closed = true;
        if (againTimer != null) {
            againTimer.cancel(false);
        }
        CimException notSent = closedFailure();
        CimException unconfirmed = new CimException(CimException.Reason.UNCONFIRMED,
                "the client was closed before the server answered: it may have been done");
        requests.failAll(pending -> pending.written ? unconfirmed : notSent);
    }

    /** The link stopped for good: every request, now and later, fails with {@code failure}. */
    void stopped(CimException failure) {
        refusal = failure;
        requests.failAll(pending -> failure);
    }
}
