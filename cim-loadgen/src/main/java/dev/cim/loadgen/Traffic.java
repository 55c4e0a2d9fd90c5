package dev.cim.loadgen;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.SendReceipt;

/**
 * What a part does with what its clients receive. Called on the client event loop threads (or a
 * peer client's own threads), so implementations must be thread-safe and quick.
 *
 * <p>Public, with {@link ChatUser}, for the peers' clients ({@code dev.cim.loadgen.peer}), which
 * call {@link #onText}, {@link #onAccepted} and {@link #onFailure}; cim's {@link LoadClient}s call
 * {@link #onChat}, {@link #onReceipt} and {@link #onFailure}.
 */
public interface Traffic {

    /** Ignores everything: the traffic of clients between parts. */
    Traffic NONE = (receiver, message, receivedNanos) -> { };

    /**
     * A chat message arrived.
     *
     * @param receivedNanos {@link System#nanoTime()} when the client handed it on, read first
     */
    void onChat(LoadClient receiver, ChatMessage message, long receivedNanos);

    /**
     * A peer's user received a text (an MQTT message's payload, an XMPP message's body): what
     * {@link #onChat} is for a cim user, for the traffic that measures peers too. Ignored unless
     * overridden.
     *
     * @param receivedNanos {@link System#nanoTime()} when the client handed it on, read first
     */
    default void onText(ChatUser receiver, String text, long receivedNanos) {
    }

    /** The server's receipt for a message {@code sender} sent. */
    default void onReceipt(LoadClient sender, SendReceipt receipt) {
    }

    /**
     * A peer's server took on a message {@code sender} sent (an MQTT broker's PUBACK, an XMPP
     * server's stream-management ack): the server has it, its recipient may not yet.
     */
    default void onAccepted(ChatUser sender) {
    }

    /** The server refused a message of {@code sender}, or it could not be sent. */
    default void onFailure(ChatUser sender, Throwable failure) {
    }
}
