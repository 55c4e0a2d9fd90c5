package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.NodeMessage;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.ScheduledChange;
import dev.cim.server.chat.routing.Cluster;
import dev.cim.server.chat.session.Replies;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.UserEntry;
import java.util.function.Supplier;

/**
 * Tells a user's terminals what became of their scheduled messages: the one that asked gets the
 * answer to its request, every other one (here, and on the other nodes the user is on) the news, so
 * that every terminal's list stays the same. The news is built only when somebody is there to hear
 * it (mostly nobody).
 */
final class ScheduleNews {

    private final Cluster cluster;

    ScheduleNews(Cluster cluster) {
        this.cluster = cluster;
    }

    /** Answers {@code session}'s request {@code requestId} and tells the user's other terminals. */
    void changed(Session session, long requestId, ScheduledChange.Kind kind, Scheduled message) {
        Replies replies = new Replies();
        changed(replies, session, requestId, kind, message);
        replies.send();
    }

    /** {@link #changed(Session, long, ScheduledChange.Kind, Scheduled)}, adding to {@code replies}. */
    void changed(Replies replies, Session session, long requestId, ScheduledChange.Kind kind, Scheduled message) {
        replies.add(session, Envelopes.scheduledChange(requestId, kind, message));
        tell(replies, session.user(), session, () -> ScheduledChange.newBuilder().setKind(kind).setMessage(message).build());
    }

    /**
     * Tells every terminal of {@code user} but {@code except} (null: all), here and on the other
     * nodes, about {@code change}.
     */
    void tell(Replies replies, String user, Session except, Supplier<ScheduledChange> change) {
        ScheduledChange news = null;
        UserEntry entry = cluster.here(user);
        if (entry != null) {
            Envelope envelope = null;
            for (Session other : entry.sessions()) {
                if (other != except) {
                    if (envelope == null) {
                        news = change.get();
                        envelope = Envelopes.scheduledChange(0, news);
                    }
                    replies.add(other, envelope);
                }
            }
        }
        if (!cluster.alone()) { // a lone node: nobody else to tell, and the change is not even built
            cluster.tellOtherNodesOf(user, NodeMessage.newBuilder().setNews(NodeMessage.UserNews.newBuilder()
                    .setUser(user).setChange(news != null ? news : change.get())), "about a scheduled message");
        }
    }

    /** News from another node, for this node's sessions of the user. */
    void fromOtherNode(NodeMessage.UserNews news) {
        Replies replies = new Replies();
        UserEntry entry = cluster.here(news.getUser());
        if (entry != null) {
            Envelope built = Envelopes.scheduledChange(0, news.getChange());
            for (Session session : entry.sessions()) {
                replies.add(session, built);
            }
        }
        replies.send();
    }
}
