package dev.cim.client.core;

import java.time.Duration;

/** The server refused a request, or the client could not make it. The message is one line for people. */
public final class CimException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why. */
    public enum Reason {
        /** The request was not valid (empty text, bad name, ...). */
        BAD_REQUEST,
        /** No user has that name. */
        UNKNOWN_USER,
        /** Too many requests; try again after {@link #retryAfter()}. */
        RATE_LIMITED,
        /** The recipient's inbox is full. */
        INBOX_FULL,
        /** The user has as many scheduled messages as the server allows. */
        TOO_MANY_SCHEDULED,
        /** No such scheduled message (sent or cancelled already, or never scheduled). */
        NOT_FOUND,
        /** The login was refused. */
        LOGIN_REFUSED,
        /**
         * The connection could not be made secure: the server's certificate failed verification, or
         * one end speaks TLS and the other does not. The client has stopped: this is a matter of
         * configuration (or an attack), not an outage that trying again would get past.
         */
        TLS_FAILED,
        /** The client holds as many unanswered requests as it may. */
        OUTBOX_FULL,
        /**
         * The client was closed before the request was written to any server: it had no effect (a
         * message was not sent).
         */
        CLOSED,
        /**
         * The client was closed after writing the request to a server and before the answer came:
         * the server may have carried it out (a message may have been delivered, or be waiting in
         * the recipient's inbox), and this client will not send it again. A send's receipt waits for
         * the recipient's acknowledgement or the inbox, so a recipient that is slow to read leaves
         * its senders' messages in this state.
         */
        UNCONFIRMED,
        /** The server failed. */
        SERVER_ERROR
    }

    private final Reason reason;
    private final Duration retryAfter;

    public CimException(Reason reason, String message) {
        this(reason, message, Duration.ZERO);
    }

    public CimException(Reason reason, String message, Duration retryAfter) {
        super(message, null, false, false);
        this.reason = reason;
        this.retryAfter = retryAfter;
    }

    public Reason reason() {
        return reason;
    }

    /** For {@link Reason#RATE_LIMITED}: how long to wait before trying again; otherwise zero. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
