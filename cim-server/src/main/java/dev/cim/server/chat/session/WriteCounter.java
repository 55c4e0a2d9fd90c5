package dev.cim.server.chat.session;

/**
 * Counts the messages sessions wrote to their clients: live, or read from the inbox. Sessions tell it
 * per flush, not per message, to keep counting off the per-message path.
 */
public interface WriteCounter {

    /** For sessions whose writes nobody counts (tests). */
    WriteCounter UNCOUNTED = (live, fromInbox) -> { };

    /** A session wrote {@code live} messages as they were routed and {@code fromInbox} read from the inbox since it last said. */
    void written(long live, long fromInbox);

    /** A session read its inbox to the end for the first time: {@code messages} were waiting there. */
    default void caughtUp(long messages) {
    }
}
