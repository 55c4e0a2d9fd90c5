package dev.cim.client.delay;

/** Sends chat messages to the server, holding them while disconnected and sending them on reconnecting. */
@FunctionalInterface
public interface ChatSender {

    void send(OutgoingChat chat);
}
