package dev.cim.client.core;

import dev.cim.common.protocol.proto.Envelope;
import io.netty.channel.Channel;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * Where the client's requests go: each is numbered and kept ({@link Requests}) until answered,
 * written at once when a connection is logged in, written again after every login until then, and
 * failed when the client closes or stops. Every method but {@link #request} runs on the client's
 * I/O thread.
 */
final class Outbox {

    private final Requests requests;
    private final IoThread io;
    private final Supplier<Channel> channel;
    private boolean closed;
    /** Set when the link stopped (login refused, TLS failed): requests fail at once with it. */
    private CimException refusal;

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
            logged.write(pending.envelope, logged.voidPromise());
            if (!pending.internal) {
                made++;
            }
        }
        logged.flush();
        return made;
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
