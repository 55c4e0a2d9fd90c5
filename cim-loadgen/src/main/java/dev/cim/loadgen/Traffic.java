package dev.cim.loadgen;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.ServerNotice;

/**
 * What a part does with the frames its clients receive. Called on the client event loop threads,
 * so implementations must be thread-safe and quick.
 */
interface Traffic {

    /** Ignores everything: the traffic of clients between parts. */
    Traffic NONE = (receiver, chat, receivedNanos) -> { };

    /**
     * A chat message arrived.
     *
     * @param receivedNanos {@link System#nanoTime()} when its frame was decoded, read first
     */
    void onChat(LoadClient receiver, Chat chat, long receivedNanos);

    /** The server's receipt for a message {@code receiver} sent (request id = the message's id). */
    default void onNotice(LoadClient receiver, long requestId, ServerNotice notice) {
    }

    /** The server refused a request of {@code receiver}. */
    default void onError(LoadClient receiver, long requestId, ErrorReply error) {
    }
}
