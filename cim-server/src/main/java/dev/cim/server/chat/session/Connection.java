package dev.cim.server.chat.session;

import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import java.util.concurrent.Executor;

/**
 * One client connection, as the chat core sees it: whatever the transport (TCP with Netty here; a
 * WebSocket or a test double elsewhere). The core never blocks on it and calls it only from its
 * {@link #owner()} thread, except {@link #owner()} itself.
 */
public interface Connection {

    /**
     * The thread that owns this connection: every call below, and all of its session's state, is
     * confined to it. Work from other threads is handed to it with {@code owner().execute(...)}.
     */
    Executor owner();

    /** True when the caller runs on {@link #owner()}. */
    boolean inOwner();

    /** Queues {@code envelope} for writing; {@link #flush()} sends what is queued. */
    void write(Envelope envelope);

    /** Sends what {@link #write} queued. */
    void flush();

    /** {@link #write} then {@link #flush}. */
    default void send(Envelope envelope) {
        write(envelope);
        flush();
    }

    /** False once the peer cannot be written to any more. */
    boolean isOpen();

    /** Bytes queued for the peer and not yet taken by the network. */
    long pendingBytes();

    /** Tells the peer why in a closing error (while it can still read), then closes. */
    void close(ErrorReply.Code code, String reason);

    /** Stops reading from the peer (it is sending faster than the server can handle), or starts again. */
    void readPaused(boolean paused);

    /** Where the peer is, for logs: {@code /127.0.0.1:51234}. */
    String remote();

    /** The peer's IP address ({@code 127.0.0.1}), by which logins and new accounts are throttled. */
    String remoteHost();
}
