package dev.cim.server.chat.routing;

import dev.cim.common.protocol.proto.Chat;

/**
 * Where the router notes each private message it has taken to its recipient (delivered, relayed, or
 * stored in their inbox), in the order it routed them: the conversation's history. Must not block.
 */
public interface Transcript {

    /** A server that keeps no history. */
    Transcript NONE = chat -> { };

    void record(Chat chat);
}
