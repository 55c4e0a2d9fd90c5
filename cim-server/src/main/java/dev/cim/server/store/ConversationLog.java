package dev.cim.server.store;

import dev.cim.common.protocol.proto.Chat;
import java.util.List;

/**
 * The logs of conversations: every message of a private conversation or a group, in order, kept for
 * the history's retention, read in pages from either end, and searched. A group's log is written by
 * {@link GroupStore#post} (where membership is checked in the same step); a private conversation's
 * by {@link #append}, behind the delivery. Each user's private conversations are indexed by their
 * last message, for the conversation list and for search.
 *
 * <p>Implementations block (they call the store); callers run them off the I/O threads.
 */
public interface ConversationLog {

    /** A message and its position in its conversation's log (positions order one log's messages). */
    record Entry(String position, Chat chat) {
    }

    /** A conversation of a user, and when its last message was. */
    record Recent(Conversation conversation, long lastMillis) {
    }

    /**
     * What one search step found: its hits, newest first, and where it stopped (the position before
     * which nothing was read; empty when it read to the beginning of the log).
     */
    record Found(List<Entry> hits, String stoppedAt, long stoppedAtMillis) {
    }

    /**
     * Appends private messages to their conversations' logs, keeping each log's messages of the last
     * {@code retention} and at most {@code maxEntries}, and notes each conversation as recent for
     * both its users. In two round trips.
     */
    void append(List<Chat> chats, long nowMillis, java.time.Duration retention, long maxEntries);

    /** Up to {@code count} messages before {@code before} (empty: the newest), newest first. */
    List<Entry> before(Conversation conversation, String before, int count);

    /** Up to {@code count} messages after {@code after} (empty: from the oldest kept), oldest first. */
    List<Entry> after(Conversation conversation, String after, int count);

    /** Up to {@code count} messages sent after {@code afterMillis}, oldest first. */
    List<Entry> afterTime(Conversation conversation, long afterMillis, int count);

    /**
     * {@code user}'s private conversations with a message newer than {@code sinceMillis}, most recent
     * first, at most {@code count} (a group's last message is its log's; see {@link GroupStore#last}).
     */
    List<Recent> recent(String user, long sinceMillis, int count);

    /**
     * Reads back from {@code before} (empty: the newest), at most {@code maxRead} messages, for those
     * whose text holds every one of {@code words} (lower case) as a word, at most {@code maxHits}.
     */
    Found search(Conversation conversation, String before, List<String> words, int maxRead, int maxHits);
}
