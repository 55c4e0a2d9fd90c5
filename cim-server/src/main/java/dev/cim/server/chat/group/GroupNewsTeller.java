package dev.cim.server.chat.group;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.GroupNews;
import dev.cim.common.protocol.proto.NodeMessage;
import dev.cim.server.chat.routing.Cluster;
import dev.cim.server.chat.session.Replies;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.UserEntry;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a group's change to every terminal of the users it concerns (its members, and those who just
 * left or were removed): here at once, on the other nodes through a {@code GroupChanged} on the bus,
 * which also makes their feeds read the members again.
 */
final class GroupNewsTeller {

    private static final Logger log = LoggerFactory.getLogger(GroupNewsTeller.class);

    private final Cluster cluster;
    private final GroupFeeds feeds;

    GroupNewsTeller(Cluster cluster, GroupFeeds feeds) {
        this.cluster = cluster;
        this.feeds = feeds;
    }

    /**
     * {@code news} happened to group {@code name}, whose members are now {@code members} (none: the
     * group ended): tells them and the users it names, on every terminal but {@code except} (which
     * got the answer).
     */
    void tell(String name, GroupNews news, Collection<String> members, Session except) {
        if (members.isEmpty()) {
            feeds.ended(name);
        } else {
            feeds.changed(name);
            if (news.getKind() == GroupNews.Kind.JOINED || news.getKind() == GroupNews.Kind.CREATED) {
                feeds.joined(name, news.getUsersList());
            }
        }
        tellHere(news, concerned(news, members), except);
        if (!cluster.alone()) {
            try {
                cluster.broadcast(NodeMessage.newBuilder().setGroupChanged(NodeMessage.GroupChanged.newBuilder()
                        .setGroup(name).setNews(news)));
            } catch (RuntimeException e) {
                log.warn("Could not tell the other nodes that #{} changed: {}", name, e.toString());
            }
        }
    }

    /**
     * A change made on another node: this node's terminals of the users concerned (the members known
     * here before it, and those it names) hear of it, and the feed reads the members again.
     */
    void heard(NodeMessage.GroupChanged changed) {
        String name = changed.getGroup();
        Set<String> concerned = concerned(changed.getNews(), feeds.knownMembers(name));
        feeds.changed(name);
        GroupNews.Kind kind = changed.getNews().getKind();
        if (kind == GroupNews.Kind.JOINED || kind == GroupNews.Kind.CREATED) {
            feeds.joined(name, changed.getNews().getUsersList());
        }
        tellHere(changed.getNews(), concerned, null);
    }

    private static Set<String> concerned(GroupNews news, Collection<String> members) {
        Set<String> users = new LinkedHashSet<>(members);
        users.addAll(news.getUsersList());
        return users;
    }

    private void tellHere(GroupNews news, Set<String> users, Session except) {
        Replies replies = new Replies();
        Envelope envelope = null;
        for (String user : users) {
            UserEntry entry = cluster.here(user);
            if (entry == null) {
                continue;
            }
            for (Session session : entry.sessions()) {
                if (session != except) {
                    if (envelope == null) {
                        envelope = Envelopes.builder(0).setGroupNews(news).build();
                    }
                    replies.add(session, envelope);
                }
            }
        }
        replies.send();
    }
}
