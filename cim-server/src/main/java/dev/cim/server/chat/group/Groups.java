package dev.cim.server.chat.group;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.GroupRequest;
import dev.cim.common.protocol.proto.NodeMessage;
import dev.cim.server.chat.platform.KnownUsers;
import dev.cim.server.chat.platform.Periodic;
import dev.cim.server.chat.platform.Platform;
import dev.cim.server.chat.routing.Cluster;
import dev.cim.server.chat.routing.GroupPosts;
import dev.cim.server.chat.routing.RouteGate;
import dev.cim.server.chat.session.GroupLogs;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.Tracker;
import dev.cim.server.store.ConversationLog;
import dev.cim.server.store.GroupStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Groups: a message to {@code #name} is stored once, in the group's log, and every member gets it,
 * on every terminal, on every node, now or at their next login.
 *
 * <h3>A message to a group</h3>
 * <ol>
 *   <li>On the group's lane (so one sender's messages keep their order), one atomic step of the store
 *       checks that the sender is a member and appends the message to the log. That is when it is
 *       confirmed to its sender ({@code POSTED}): it is durable, and the members read it from there.</li>
 *   <li>This node's sessions of the members get it at once ({@link GroupFeeds}); the other nodes are
 *       told over the bus, once each, and deliver it to theirs. A node that misses a message on the
 *       bus reads the log for it.</li>
 *   <li>Each member's client acknowledges it as any message; the member's cursor in the log moves
 *       ({@link GroupCursors}). A member who was away reads the log after their cursor at login,
 *       after their inbox.</li>
 * </ol>
 * Membership is taken when a message is posted: a scheduled message to a group goes to its members
 * at its time, and only if its sender is still one. Changes of membership ({@link GroupRequests})
 * are told to every terminal of the users they concern.
 */
public final class Groups implements GroupPosts, GroupLogs, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Groups.class);

    private final GroupStore store;
    private final Cluster cluster;
    private final Platform platform;
    private final GroupSettings settings;
    private final GroupFeeds feeds;
    private final GroupCursors cursors;
    private final GroupNewsTeller news;
    private final GroupRequests requests;
    private final Periodic background;

    public Groups(GroupStore store, ConversationLog logs, KnownUsers accounts, Cluster cluster, Platform platform,
            GroupSettings settings) {
        this.store = store;
        this.cluster = cluster;
        this.platform = platform;
        this.settings = settings;
        this.feeds = new GroupFeeds(store, logs, cluster, platform.lanes(), platform.nanoTime());
        this.cursors = new GroupCursors(store, logs);
        this.news = new GroupNewsTeller(cluster, feeds);
        this.requests = new GroupRequests(store, accounts, feeds, news, settings, platform.clock());
        this.background = new Periodic("cim-groups", this::everySecond, Duration.ofSeconds(1), Duration.ofSeconds(1));
    }

    private void everySecond() {
        cursors.flush();
        feeds.sweep();
    }

    /** Starts the background work: cursors written behind, feeds swept for what the bus lost. */
    public void start() {
        background.start();
    }

    /** Stops it, writing the cursors that moved. */
    @Override
    public void close() {
        background.close();
        cursors.flush();
    }

    /**
     * {@code user} is logging in here: their groups, sorted, each with a feed on this node from now
     * on. Blocks on the store; call it on the user's lane before their session starts.
     */
    @Override
    public List<String> loggingIn(String user) {
        List<String> groups = new ArrayList<>();
        for (String name : new TreeSet<>(store.groupsOf(user))) {
            if (store.isMember(name, user)) {
                feeds.ensure(name);
                groups.add(name);
            }
        }
        return groups;
    }

    @Override
    public String cursor(String group, String user) {
        return cursors.cursor(group, user);
    }

    @Override
    public List<ConversationLog.Entry> after(String group, String position, int count) {
        return cursors.after(group, position, count);
    }

    @Override
    public void acknowledged(String group, String user, String position) {
        cursors.acknowledged(group, user, position);
    }

    @Override
    public void post(Chat chat, Tracker tracker, Session from, RouteGate gate) {
        String name = chat.getRecipient().substring(1);
        feeds.lane(name).execute(() -> {
            if (gate.behindRetry(chat.getRecipient(), tracker.sequence())) {
                tracker.failed(Tracker.Failure.behindRetry(chat.getRecipient()));
                return;
            }
            GroupStore.Posting posting;
            try {
                posting = store.post(name, chat, platform.clock().millis(), settings.retention(),
                        settings.maxLogEntries());
            } catch (RuntimeException e) {
                log.error("Could not post {} to #{}: {}", chat.getId(), name, e.toString());
                tracker.failed(Tracker.Failure.ofStore(e, "message not sent"));
                return;
            }
            if (posting instanceof GroupStore.Posting.NotMember) {
                tracker.failed(new Tracker.Failure(ErrorReply.Code.BAD_REQUEST, chat.getSender()
                        + " is not a member of #" + name + " (or there is no such group): message not sent"));
                return;
            }
            GroupStore.Post post = ((GroupStore.Posting.Posted) posting).post();
            feeds.posted(name, chat, post.position(), post.previous(), post.version(), from);
            if (!cluster.alone()) {
                try {
                    cluster.broadcast(NodeMessage.newBuilder().setGroupPost(NodeMessage.GroupPost.newBuilder()
                            .setChat(chat).setPosition(post.position()).setPrevious(post.previous())
                            .setVersion(post.version())));
                } catch (RuntimeException e) {
                    // The other nodes' sweeps find it in the log.
                    log.warn("Could not tell the other nodes of {} in #{}: {}", chat.getId(), name, e.toString());
                }
            }
            tracker.stored();
        });
    }

    /** A message posted on another node. */
    public void heard(NodeMessage.GroupPost post) {
        String name = post.getChat().getRecipient().substring(1);
        feeds.lane(name).execute(() -> feeds.posted(name, post.getChat(), post.getPosition(), post.getPrevious(),
                post.getVersion(), null));
    }

    /** A group changed on another node. */
    public void heard(NodeMessage.GroupChanged changed) {
        news.heard(changed);
    }

    /** Answers a group request of {@code session}. */
    public void handle(Session session, long requestId, GroupRequest request) {
        requests.handle(session, requestId, request);
    }

    /** True when {@code user} is a member of {@code name}; blocks on the store. */
    public boolean isMember(String name, String user) {
        return store.isMember(name, user);
    }
}
