package dev.cim.server.chat.routing;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.NodeMessage;
import dev.cim.server.chat.session.Replies;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.UserEntry;
import java.util.function.Supplier;

/**
 * Tells every terminal of a user, on this node and the others the user is on, what one of them did
 * (a scheduled message changed, a setting changed), so that all of them show the same. The news is
 * built only when somebody is there to hear it (mostly nobody).
 */
public final class Terminals {

    private final Cluster cluster;

    public Terminals(Cluster cluster) {
        this.cluster = cluster;
    }

    /**
     * Adds {@code news} (a frame with request id 0) to {@code replies} for every session of
     * {@code user} here but {@code except} (null: all), and sends it to the other nodes the user is on.
     *
     * @param what for a log line, should the other nodes not be told: "about a scheduled message"
     */
    public void tell(Replies replies, String user, Session except, Supplier<Envelope> news, String what) {
        Envelope built = null;
        UserEntry entry = cluster.here(user);
        if (entry != null) {
            for (Session other : entry.sessions()) {
                if (other != except) {
                    if (built == null) {
                        built = news.get();
                    }
                    replies.add(other, built);
                }
            }
        }
        if (!cluster.alone()) { // a lone node: nobody else to tell, and the news is not even built
            cluster.tellOtherNodesOf(user, NodeMessage.newBuilder().setNews(NodeMessage.UserNews.newBuilder()
                    .setUser(user).setEnvelope(built != null ? built : news.get())), what);
        }
    }

    /** News from another node, for this node's sessions of the user. */
    public void fromOtherNode(NodeMessage.UserNews news) {
        UserEntry entry = cluster.here(news.getUser());
        if (entry == null) {
            return;
        }
        Envelope frame = news.hasEnvelope() ? news.getEnvelope() : Envelopes.scheduledChange(0, news.getChange());
        Replies replies = new Replies();
        for (Session session : entry.sessions()) {
            replies.add(session, frame);
        }
        replies.send();
    }
}
