package dev.cim.server.routing;

/** Where a chat message went; the chat handler turns it into a notice or an error for the sender. */
public sealed interface RouteOutcome {

    /** Sent to {@code sessions} online sessions (none, for a broadcast when nobody else is online). */
    record Delivered(String messageId, int sessions) implements RouteOutcome {
    }

    /** The recipient was offline; the message waits in their offline inbox. */
    record StoredOffline(String messageId, String recipient) implements RouteOutcome {
    }

    /** No account has that name; nothing was sent. */
    record UnknownRecipient(String recipient) implements RouteOutcome {
    }
}
