package dev.cim.server.routing;

import dev.cim.common.protocol.ChatMessage;
import java.util.List;

/** Messages kept for users who were offline when they were sent, delivered at their next login. */
public interface OfflineInbox {

    /** Appends {@code message} to the inbox of {@code user}. */
    void store(String user, ChatMessage message);

    /** Takes every message in the inbox of {@code user}, oldest first, and empties it atomically. */
    List<ChatMessage> drain(String user);
}
