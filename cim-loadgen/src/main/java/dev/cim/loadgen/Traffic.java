package dev.cim.loadgen;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.SendReceipt;

/**
 * What a part does with what its clients receive. Called on the client event loop threads, so
 * implementations must be thread-safe and quick.
 */
interface Traffic {

    /** Ignores everything: the traffic of clients between parts. */
    Traffic NONE = (receiver, message, receivedNanos) -> { };

    /**
     * A chat message arrived.
     *
     * @param receivedNanos {@link System#nanoTime()} when the client handed it on, read first
     */
    void onChat(LoadClient receiver, ChatMessage message, long receivedNanos);

    /** The server's receipt for a message {@code sender} sent. */
    default void onReceipt(LoadClient sender, SendReceipt receipt) {
    }

    /** The server refused a message of {@code sender}, or it could not be sent. */
    default void onFailure(LoadClient sender, Throwable failure) {
    }
}
