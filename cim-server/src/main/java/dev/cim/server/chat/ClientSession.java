package dev.cim.server.chat;

import dev.cim.server.chat.origin.Origin;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.Tracker;

/**
 * A logged-in client as its transport holds it: the session on this connection, and the client
 * origin it speaks for (which outlives the connection: a client that reconnects speaks for the same
 * origin, and its requests are not routed twice). Opaque to transports, which hand it back with
 * every frame ({@link ChatService#received}) and when the connection ends ({@link ChatService#closed}).
 */
public final class ClientSession {

    final Session session;
    final Origin origin;
    /** The session token the client logged in with, or was given: the one a logout ends. */
    final String token;
    /**
     * Where the outcomes of its messages that are not timed go ({@link Sends}): one for all of them,
     * made at the first on the session's owner thread, rather than one per message.
     */
    Tracker.Outcome receipts;

    ClientSession(Session session, Origin origin, String token) {
        this.session = session;
        this.origin = origin;
        this.token = token;
    }

    /** The user logged in. */
    public String user() {
        return session.user();
    }

    @Override
    public String toString() {
        return session.toString();
    }
}
