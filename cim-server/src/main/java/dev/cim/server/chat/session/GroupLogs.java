package dev.cim.server.chat.session;

import dev.cim.server.store.ConversationLog;
import java.util.List;

/**
 * What a session needs of its user's groups: which they are, where the user's cursor is in each
 * one's log, the messages after a position, and where to say the user acknowledged up to. Implemented by the groups' part of
 * the core, which keeps the cursors' writes behind the acknowledgements.
 */
public interface GroupLogs {

    /** A node with no groups: no cursors, no messages. */
    GroupLogs NONE = new GroupLogs() {
        @Override
        public List<String> loggingIn(String user) {
            return List.of();
        }

        @Override
        public String cursor(String group, String user) {
            return "";
        }

        @Override
        public List<ConversationLog.Entry> after(String group, String position, int count) {
            return List.of();
        }

        @Override
        public void acknowledged(String group, String user, String position) {
        }
    };

    /**
     * {@code user} is logging in on this node: their groups, whose messages this node delivers to
     * their sessions from now on. Blocks; call it before their session starts.
     */
    List<String> loggingIn(String user);

    /** The position up to which {@code user} acknowledged {@code group}'s log; empty for none. Blocks. */
    String cursor(String group, String user);

    /** Up to {@code count} messages of {@code group}'s log after {@code position}, oldest first. Blocks. */
    List<ConversationLog.Entry> after(String group, String position, int count);

    /** {@code user} acknowledged {@code group}'s log up to {@code position}. Any thread; does not block. */
    void acknowledged(String group, String user, String position);
}
