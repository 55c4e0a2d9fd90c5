package dev.cim.server.chat.routing;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.Tracker;

/**
 * Where the router hands a message to a group ({@code #name}): the groups' part of the core posts it
 * to the group's log and delivers it to the members. A part of {@code tracker}, done once the post
 * is durable (or refused).
 */
public interface GroupPosts {

    /** A core without groups: every message to a group is refused. */
    GroupPosts NONE = (chat, tracker, from, gate) -> tracker.failed(new Tracker.Failure(ErrorReply.Code.BAD_REQUEST,
            "this server has no groups: message not sent"));

    /**
     * Posts {@code chat}; {@code tracker} has a part open for it.
     *
     * @param from the session that sent it (its other terminals get it, not this one), or null
     * @param gate its source's gate: a post whose source has an earlier one to send again is refused
     *             ({@link RouteGate#behindRetry}) when its turn comes
     */
    void post(Chat chat, Tracker tracker, Session from, RouteGate gate);
}
