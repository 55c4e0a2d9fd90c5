package dev.cim.server.routing;

/** Where a chat message went; the chat handler turns it into a notice or an error for the sender. */
public sealed interface RouteOutcome {

    /**
     * Sent to {@code sessions} online sessions on this node (none, for a broadcast when nobody else is
     * online) and relayed to {@code remoteNodes} other nodes, which deliver to their own sessions.
     */
    record Delivered(String messageId, int sessions, int remoteNodes) implements RouteOutcome {
    }

    /** The recipient was offline; the message waits in their offline inbox. */
    record StoredOffline(String messageId, String recipient) implements RouteOutcome {
    }

    /** No account has that name; nothing was sent. */
    record UnknownRecipient(String recipient) implements RouteOutcome {
    }
}
