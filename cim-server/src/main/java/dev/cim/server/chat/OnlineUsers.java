package dev.cim.server.chat;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.server.chat.session.Connection;
import dev.cim.server.chat.session.LocalUsers;
import dev.cim.server.store.PresenceStore;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.Executor;

/**
 * Answers "who is online": the users with a session on any node, sorted, in frames of
 * {@value #NAMES_PER_FRAME} names. The store's presence is written behind each login, on the
 * user's lane, so it is joined with the users who have a session on this node: a user who asks right
 * after logging in is on the list, as is anyone who logged in here a moment before.
 */
final class OnlineUsers {

    /** Names per frame: 1,000 names of up to 32 characters stay far under a frame. */
    private static final int NAMES_PER_FRAME = 1000;

    private final PresenceStore presence;
    private final LocalUsers users;
    private final Executor blocking;

    OnlineUsers(PresenceStore presence, LocalUsers users, Executor blocking) {
        this.presence = presence;
        this.users = users;
        this.blocking = blocking;
    }

    /** Answers request {@code id} on {@code connection}, reading the store on the blocking executor. */
    void answer(Connection connection, long id) {
        blocking.execute(() -> {
            TreeSet<String> names;
            try {
                names = new TreeSet<>(presence.onlineUsers());
            } catch (RuntimeException e) {
                connection.owner().execute(() -> connection.send(Envelopes.error(id,
                        ErrorReply.Code.INTERNAL, "the server's storage is unavailable; try again", false)));
                return;
            }
            users.sessionCounts().forEach((user, sessions) -> {
                if (sessions > 0) {
                    names.add(user);
                }
            });
            List<String> online = new ArrayList<>(names);
            connection.owner().execute(() -> {
                int total = online.size();
                if (total == 0) {
                    connection.send(Envelopes.onlineUsersReply(id, List.of(), false, 0));
                    return;
                }
                for (int from = 0; from < total; from += NAMES_PER_FRAME) {
                    int to = Math.min(total, from + NAMES_PER_FRAME);
                    connection.write(Envelopes.onlineUsersReply(id, online.subList(from, to), to < total, total));
                }
                connection.flush();
            });
        });
    }
}
