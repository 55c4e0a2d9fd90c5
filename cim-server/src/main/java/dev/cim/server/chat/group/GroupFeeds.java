package dev.cim.server.chat.group;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.server.chat.platform.UserLanes;
import dev.cim.server.chat.routing.Cluster;
import dev.cim.server.chat.session.Delivery;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.UserEntry;
import dev.cim.server.store.Conversation;
import dev.cim.server.store.ConversationLog;
import dev.cim.server.store.GroupStore;
import dev.cim.server.store.LogPosition;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers each group's messages to this node's sessions of its members, in the order of the
 * group's log, once. A node keeps a <em>feed</em> for each group with members online here: the
 * position of the last message it delivered, and the members (cached, reloaded when the group's
 * membership version moves). Messages posted here are delivered as they are posted; those posted on
 * other nodes arrive over the node bus, which may lose one: a message whose previous position is not
 * the feed's last makes the feed read the log for what it missed, and a sweep every few seconds
 * reads each feed's group's last position for a message lost at the end. A feed's state is confined
 * to the group's lane ({@code #name} on {@link UserLanes}).
 *
 * <h3>A member logging in</h3>
 * The feed is made, at the log's last position then, before the member's session reads the log from
 * its cursor: so every message is either read by the session (it was in the log) or delivered by the
 * feed (it came after), and one that is both is written once (the session drops a position it wrote).
 */
final class GroupFeeds {

    private static final Logger log = LoggerFactory.getLogger(GroupFeeds.class);
    /** Messages read at once to fill a gap, and in all; past that, sessions get the rest at their next login. */
    private static final int FILL_PAGE = 200;
    private static final int FILL_LIMIT = 10_000;
    /** How long a feed with no member here is kept, so that a login about to need it finds it. */
    private static final long IDLE_NANOS = TimeUnit.MINUTES.toNanos(10);

    /** One group's feed; confined to the group's lane once made. */
    private static final class Feed {
        String last;
        long version = -1;
        volatile Set<String> members = Set.of();
        volatile long usedNanos;

        Feed(String last, long nowNanos) {
            this.last = last;
            this.usedNanos = nowNanos;
        }
    }

    private final GroupStore store;
    private final ConversationLog logs;
    private final Cluster cluster;
    private final UserLanes lanes;
    private final LongSupplier nanoTime;
    private final ConcurrentHashMap<String, Feed> feeds = new ConcurrentHashMap<>();

    GroupFeeds(GroupStore store, ConversationLog logs, Cluster cluster, UserLanes lanes, LongSupplier nanoTime) {
        this.store = store;
        this.logs = logs;
        this.cluster = cluster;
        this.lanes = lanes;
        this.nanoTime = nanoTime;
    }

    /** The lane of group {@code name}: its posts, changes and feed, in order. */
    java.util.concurrent.Executor lane(String name) {
        return lanes.of("#" + name);
    }

    /**
     * A member of {@code name} is logging in here: makes the group's feed if there is none, at the
     * log's last position. Blocks on the store; call it before the member's session reads the log.
     */
    void ensure(String name) {
        Feed feed = feeds.get(name);
        if (feed != null) {
            feed.usedNanos = nanoTime.getAsLong();
            return;
        }
        String last = store.last(name).orElse("");
        feeds.putIfAbsent(name, new Feed(last, nanoTime.getAsLong()));
    }

    /**
     * {@code users} joined group {@code name}: if one of them has a session here and the node has no
     * feed of the group yet, makes one from where they joined (their cursor), on the group's lane; the
     * next sweep delivers what was posted since.
     */
    void joined(String name, Collection<String> users) {
        for (String user : users) {
            if (cluster.here(user) != null) {
                lane(name).execute(() -> {
                    if (!feeds.containsKey(name)) {
                        try {
                            feeds.putIfAbsent(name, new Feed(store.cursor(name, user).orElse(""), nanoTime.getAsLong()));
                        } catch (RuntimeException e) {
                            log.warn("Could not start delivering #{} here: {}", name, e.toString());
                        }
                    }
                });
                return;
            }
        }
    }

    /**
     * On the group's lane: {@code chat} was posted at {@code position} (after {@code previous}),
     * with the membership at {@code version}. Delivers it, and what the feed missed before it.
     *
     * @param from the session that sent it (not delivered to), or null
     */
    void posted(String name, Chat chat, String position, String previous, long version, Session from) {
        Feed feed = feeds.get(name);
        if (feed == null) {
            return; // no member here: nothing to deliver
        }
        if (LogPosition.compare(position, feed.last) <= 0) {
            return; // delivered already, or before the feed began (the sessions read it from the log)
        }
        if (!previous.equals(feed.last) && LogPosition.compare(previous, feed.last) > 0) {
            fill(name, feed, previous);
        }
        deliver(name, feed, chat, position, version, from);
    }

    /** On the group's lane: reads and delivers what came after the feed's last, up to {@code until}. */
    private void fill(String name, Feed feed, String until) {
        int read = 0;
        Conversation conversation = Conversation.group(name);
        while (read < FILL_LIMIT && LogPosition.compare(feed.last, until) < 0) {
            List<ConversationLog.Entry> page;
            try {
                page = logs.after(conversation, feed.last, FILL_PAGE);
            } catch (RuntimeException e) {
                log.warn("Could not read the log of #{} for the messages this node missed: {}", name, e.toString());
                return;
            }
            if (page.isEmpty()) {
                return;
            }
            for (ConversationLog.Entry entry : page) {
                if (LogPosition.compare(entry.position(), until) > 0) {
                    return;
                }
                deliver(name, feed, entry.chat(), entry.position(), feed.version, null);
                read++;
            }
        }
        if (read >= FILL_LIMIT) {
            log.warn("#{}: {} messages missed on this node; its sessions get the rest at their next login", name, read);
        }
    }

    private void deliver(String name, Feed feed, Chat chat, String position, long version, Session from) {
        feed.last = position;
        Set<String> members = members(name, feed, version);
        if (members.isEmpty()) {
            return;
        }
        Delivery delivery = Delivery.posted(chat, position);
        Iterable<String> candidates = members.size() <= cluster.users().userCount() ? members : localUsers();
        for (String user : candidates) {
            if (members.contains(user)) {
                UserEntry entry = cluster.here(user);
                if (entry != null) {
                    entry.offer(delivery, from, false);
                }
            }
        }
    }

    private Iterable<String> localUsers() {
        Set<String> here = new HashSet<>();
        cluster.users().entries().forEach(entry -> here.add(entry.user()));
        return here;
    }

    /** The members, reloaded when {@code version} is not the one they were loaded at. */
    private Set<String> members(String name, Feed feed, long version) {
        if (feed.version != version || feed.version < 0) {
            try {
                feed.members = Set.copyOf(store.members(name).orElse(List.of()));
                feed.version = version < 0 ? store.info(name).map(GroupStore.Info::version).orElse(0L) : version;
            } catch (RuntimeException e) {
                log.warn("Could not read the members of #{}; delivering to those known: {}", name, e.toString());
            }
        }
        return feed.members;
    }

    /** The members this node knows of group {@code name} (none without a feed); any thread. */
    Set<String> knownMembers(String name) {
        Feed feed = feeds.get(name);
        return feed == null ? Set.of() : feed.members;
    }

    /** The group's membership changed: the members are read again at the next message. */
    void changed(String name) {
        lane(name).execute(() -> {
            Feed feed = feeds.get(name);
            if (feed != null) {
                feed.version = -1;
            }
        });
    }

    /** The group ended: its feed goes. */
    void ended(String name) {
        lane(name).execute(() -> feeds.remove(name));
    }

    /**
     * Every few seconds: for each feed, reads the group's last position and delivers what the feed
     * missed (a message lost at the end, with no later one to show the gap); forgets the feeds of
     * groups without a member here for a while.
     */
    void sweep() {
        long now = nanoTime.getAsLong();
        feeds.forEach((name, feed) -> lane(name).execute(() -> {
            if (feeds.get(name) != feed) {
                return;
            }
            Set<String> members = feed.members;
            boolean memberHere = false;
            for (String user : members) {
                if (cluster.here(user) != null) {
                    memberHere = true;
                    break;
                }
            }
            if (!memberHere && feed.version >= 0) {
                if (now - feed.usedNanos > IDLE_NANOS) {
                    feeds.remove(name, feed);
                }
                return;
            }
            try {
                store.last(name).ifPresent(last -> {
                    if (LogPosition.compare(last, feed.last) > 0) {
                        fill(name, feed, last);
                    }
                });
            } catch (RuntimeException e) {
                log.warn("Could not read the last position of #{}: {}", name, e.toString());
            }
        }));
    }

    /** Feeds held. */
    int size() {
        return feeds.size();
    }
}
