package dev.cim.client.core;

import java.time.Duration;

/** A change in the client's connection, as {@link CimListener#onConnection} reports it. */
public sealed interface ConnectionEvent {

    /** Connecting to {@code address}; {@code attempt} counts from 1 since the last login. */
    record Connecting(ServerAddress address, int attempt) implements ConnectionEvent {
    }

    /**
     * Logged in.
     *
     * @param address        the server
     * @param nodeId         the server node that holds the connection
     * @param accountCreated true when this login created the account
     * @param resent         requests sent again because their answers were lost with a connection
     */
    record Connected(ServerAddress address, String nodeId, boolean accountCreated, int resent)
            implements ConnectionEvent {
    }

    /** The connection was lost or could not be made; the client tries again after {@code retryIn}. */
    record Disconnected(String reason, Duration retryIn) implements ConnectionEvent {
    }

    /** The server asked the client to go elsewhere (it is stopping); it reconnects after {@code retryIn}. */
    record GoingAway(String reason, Duration retryIn) implements ConnectionEvent {
    }

    /** The server refused the login; the client stops (a wrong password will not get better). */
    record Refused(String reason) implements ConnectionEvent {
    }

    /**
     * The connection could not be made secure (the server failed TLS verification, or one end
     * speaks TLS and the other does not); the client stops. {@code reason} is one line.
     */
    record TlsFailed(String reason) implements ConnectionEvent {
    }

    /** The client was closed. */
    record Closed() implements ConnectionEvent {
    }
}
