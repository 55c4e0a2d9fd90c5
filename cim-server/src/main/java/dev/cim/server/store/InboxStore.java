package dev.cim.server.store;

import dev.cim.common.protocol.proto.Chat;
import java.util.List;
import java.util.Set;

/**
 * Each user's inbox: the messages that reached none of their sessions, or that a session of theirs
 * did not acknowledge before it closed, kept durably and in order until a session acknowledges them.
 * Read in pages, so that a large inbox never has to fit in memory at once.
 *
 * <p>Implementations block (they call the store); callers run them off the I/O threads, one user's
 * calls on one thread in order.
 */
public interface InboxStore {

    /** A stored message and where it sits. */
    record Entry(String id, Chat chat, int bytes) {
    }

    /** What {@link #storeIfOffline} did. */
    sealed interface Offer {
        /** Stored, under these ids. */
        record Stored(String id) implements Offer {
        }

        /** Not stored: the user is online on these nodes. */
        record Online(Set<String> nodes) implements Offer {
        }

        /** Not stored: the inbox is at its limit. */
        record Full(String reason) implements Offer {
        }

        /** Not stored: no user has that name. */
        record Unknown() implements Offer {
        }
    }

    /**
     * Stores {@code chat} for {@code user} unless they are online somewhere, checking in the same
     * atomic step that they exist and that their inbox has room. A user who logs in at that moment
     * either is seen online or finds the message in the inbox: never neither.
     */
    Offer storeIfOffline(String user, Chat chat);

    /**
     * Stores {@code chats} for {@code user}, in order, whatever their presence and limits: messages
     * already accepted whose session went away.
     *
     * @return their ids, in order
     */
    List<String> store(String user, List<Chat> chats);

    /** Up to {@code count} messages after id {@code after} ("0" for the start), oldest first. */
    List<Entry> page(String user, String after, int count);

    /** Removes acknowledged messages. */
    void remove(String user, List<Entry> entries);
}
