package dev.cim.server.chat.routing;

import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.NodeMessage;
import dev.cim.server.chat.platform.Platform;
import dev.cim.server.chat.platform.UserLanes;
import dev.cim.server.chat.session.Delivery;
import dev.cim.server.chat.session.LocalUsers;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.Tracker;
import dev.cim.server.chat.session.UserEntry;
import dev.cim.server.store.InboxStore;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes each accepted message to everyone it is for, counting every part toward its receipt.
 *
 * <ul>
 *   <li>A message to a group ({@code #name}) goes to the groups' part of the core ({@link GroupPosts}),
 *       which keeps it in the group's log and delivers it to the members.</li>
 *   <li>A message to {@value ChatRules#EVERYONE} goes to every session online, here and on the other
 *       nodes, but the one that sent it.</li>
 *   <li>A private message goes to every session of the recipient, here and on other nodes, and to
 *       the sender's other sessions here (so that each terminal shows the whole conversation; those
 *       copies count for nothing).</li>
 *   <li>A private message to a user with no session here goes to the recipient's lane, which in one
 *       atomic step of the store either finds them online elsewhere (it is relayed there) or stores
 *       it in their inbox (or finds that no such user exists, or that the inbox is full).</li>
 * </ul>
 * The common case, a recipient on this node and no other node alive, needs nothing but memory: no
 * store, no thread hop beyond the recipient's I/O thread.
 *
 * <h3>Order</h3>
 * One source's messages to one recipient arrive in the order sent: they are handed over in that
 * order, to the recipient's sessions under its entry lock or to its lane, and a {@link RouteGate}
 * keeps a later message from overtaking one still on the lane. A message relayed from the lane to
 * another node is out of the lane's hands until that node answers (or, if it died, until the relay's
 * deadline stores it in the inbox); meanwhile the recipient may log in here, so everything to them
 * that comes after waits behind it (a <em>hold</em>, per recipient, on their lane) and is routed once
 * the relay is settled. A relay stored in the inbox pokes the recipient's sessions here first, so
 * they read it before what was held; and as the poke to other nodes may be lost like the relay
 * was, the relays to that recipient that follow ask the other node to have the inbox read before
 * them (until one that asked is answered). What a hold keeps is bounded by the senders' own limits
 * (the pending messages one origin may have): each held message is one of its sender's unresolved ones.
 */
public final class Router {

    private static final Logger log = LoggerFactory.getLogger(Router.class);

    private final Cluster cluster;
    private final LocalUsers users;
    private final UserLanes lanes;
    private final InboxStore inbox;
    private final Relays relays;
    private final GroupPosts groups;
    private final Transcript transcript;
    /** Recipients with a relay unsettled; read on any thread, changed on the recipient's lane only. */
    private final ConcurrentHashMap<String, Hold> holds = new ConcurrentHashMap<>();
    /**
     * Recipients with a message stored here in their inbox because its relay went unanswered: the
     * poke that tells their sessions elsewhere may be lost like the relay was, so every relay to them
     * asks the other node to have the inbox read first, until one that asked is answered. Changed on
     * the recipient's lane; one entry per such recipient, gone at that answer.
     */
    private final Set<String> inboxFirst = ConcurrentHashMap.newKeySet();

    /** What waits behind a recipient's unsettled relays; confined to the recipient's lane. */
    private static final class Hold {
        int relays;
        final ArrayDeque<Runnable> behind = new ArrayDeque<>();
    }

    /**
     * @param relayTimeout how long a relay to another node may wait for its answer before the
     *                     message is stored in the recipient's inbox instead
     * @param groups       where messages to groups go
     * @param transcript   where each private message routed is noted, in order
     */
    public Router(Cluster cluster, Platform platform, InboxStore inbox, Duration relayTimeout, GroupPosts groups,
            Transcript transcript) {
        this.cluster = cluster;
        this.groups = groups;
        this.transcript = transcript;
        this.users = cluster.users();
        this.lanes = platform.lanes();
        this.inbox = inbox;
        this.relays = new Relays(cluster, platform.wheel(), relayTimeout, this::storeUnanswered);
    }

    /** The relays to other nodes waiting for their answers. */
    public Relays relays() {
        return relays;
    }

    /**
     * Routes {@code chat}; {@code tracker} hears about each part and is sealed here.
     *
     * @param from the session that sent it (excluded from delivery), or null
     * @param gate the source's gate
     */
    public void route(Chat chat, Tracker tracker, Session from, RouteGate gate) {
        String to = chat.getRecipient();
        if (ChatRules.isGroup(to)) {
            tracker.expect();
            groups.post(chat, tracker, from, gate);
            tracker.seal();
            return;
        }
        Delivery delivery = Delivery.of(chat, tracker);
        if (ChatRules.EVERYONE.equals(to)) {
            broadcast(delivery, from, gate);
            tracker.seal();
            return;
        }
        String sender = chat.getSender();
        if (from != null && !to.equals(sender)) {
            users.copyToOtherSessions(delivery, from);
        }
        if (gate.mustQueue(to) || held(to)) {
            viaLane(delivery, from, gate);
            tracker.seal();
            return;
        }
        UserEntry entry = users.get(to);
        int here = entry == null ? -1 : entry.offer(delivery, from, true);
        if (here > 0 || to.equals(sender)) {
            transcript.record(chat);
        }
        if (to.equals(sender) || (here > 0 && cluster.alone())) {
            tracker.seal(); // to oneself: their other terminals only
            return;
        }
        if (here > 0) {
            // Here, and maybe on other nodes too: ask the store off this thread.
            tracker.expect();
            lanes.of(to).execute(() -> {
                try {
                    relayElsewhere(delivery);
                } catch (RuntimeException e) {
                    log.warn("Could not look up the other nodes of {}: {}", to, e.toString());
                } finally {
                    tracker.nobody();
                }
            });
            tracker.seal();
            return;
        }
        viaLane(delivery, from, gate);
        tracker.seal();
    }

    private void viaLane(Delivery delivery, Session from, RouteGate gate) {
        String to = delivery.chat().getRecipient();
        delivery.tracker().expect();
        gate.enter(to);
        lanes.of(to).execute(() -> {
            try {
                behindRelays(to, () -> {
                    if (gate.behindRetry(to, delivery.tracker().sequence())) {
                        // An earlier message of its source failed here meanwhile, to be sent again first.
                        delivery.tracker().failed(Tracker.Failure.behindRetry(to));
                    } else {
                        offline(delivery, from);
                    }
                });
            } finally {
                gate.leave(to);
            }
        });
    }

    /** True when messages to {@code user} must wait behind a relay (a hint: the lane decides). */
    private boolean held(String user) {
        return !holds.isEmpty() && holds.containsKey(user);
    }

    /** On {@code to}'s lane: runs {@code task} now, or after the relays to {@code to} still unsettled. */
    private void behindRelays(String to, Runnable task) {
        Hold hold = holds.get(to);
        if (hold == null) {
            task.run();
        } else {
            hold.behind.add(task);
        }
    }

    /** On {@code to}'s lane: relays {@code delivery} to {@code node}, holding what comes after it. */
    private void relayHolding(String to, String node, Delivery delivery) {
        boolean asked = inboxFirst.contains(to);
        relays.send(node, delivery.chat(), delivery.tracker(), asked,
                (answered, storedThere) -> lanes.of(to).execute(() -> relaySettled(to, asked && answered, storedThere)));
        holds.computeIfAbsent(to, user -> new Hold()).relays++;
    }

    /**
     * On {@code to}'s lane: a relay to them was answered or timed out.
     *
     * @param inboxRead it asked for their inbox to be read first, and was answered
     */
    private void relaySettled(String to, boolean inboxRead, boolean storedThere) {
        if (inboxRead) {
            inboxFirst.remove(to);
        }
        if (storedThere) {
            pokeHere(to); // they may have logged in here meanwhile: read it before what was held
        }
        Hold hold = holds.get(to);
        hold.relays--;
        // The hold stays in place while what it kept runs, so that nothing newer overtakes it; one
        // that relays again adds to it, and the rest wait behind that relay.
        for (Runnable task; hold.relays == 0 && (task = hold.behind.poll()) != null; ) {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.error("Could not route a message held for {}: {}", to, e.toString());
            }
        }
        if (hold.relays == 0) {
            holds.remove(to);
        }
    }

    /** On the recipient's lane: they had no session here when the message was routed. */
    private void offline(Delivery delivery, Session from) {
        Tracker tracker = delivery.tracker();
        String to = delivery.chat().getRecipient();
        try {
            UserEntry entry = users.get(to);
            if (entry != null && entry.offer(delivery, from, true) > 0) {
                transcript.record(delivery.chat());
                if (!cluster.alone()) {
                    relayElsewhere(delivery);
                }
                tracker.nobody(); // this part: the sessions that took it have parts of their own
                return;
            }
            InboxStore.Offer offer = inbox.storeIfOffline(to, delivery.chat());
            if (offer instanceof InboxStore.Offer.Stored || offer instanceof InboxStore.Offer.Online) {
                transcript.record(delivery.chat());
            }
            if (offer instanceof InboxStore.Offer.Stored) {
                tracker.stored();
            } else if (offer instanceof InboxStore.Offer.Online online) {
                int relayed = 0;
                boolean here = false;
                boolean silent = false;
                for (String node : online.nodes()) {
                    if (node.equals(cluster.nodeId())) {
                        here = true;
                    } else if (cluster.isAlive(node)) {
                        relayHolding(to, node, delivery);
                        relayed++;
                    } else {
                        silent = true;
                    }
                }
                if (here || relayed == 0) {
                    // Logged in here since the lookup above (their session reads the inbox), or online
                    // only on nodes whose heartbeat stopped and whose presence has not expired yet:
                    // store it.
                    inbox.store(to, List.of(delivery.chat()));
                    pokeHere(to);
                    if (silent) {
                        // A node only frozen comes back with its sessions: they read it then.
                        pokeOtherNodes(to);
                        inboxFirst.add(to);
                    }
                    tracker.expect();
                    tracker.stored();
                }
                tracker.nobody();
            } else if (offer instanceof InboxStore.Offer.Full full) {
                tracker.failed(new Tracker.Failure(ErrorReply.Code.INBOX_FULL, full.reason()));
            } else {
                tracker.failed(new Tracker.Failure(ErrorReply.Code.UNKNOWN_USER,
                        "no user named " + to + ": message not sent"));
            }
        } catch (RuntimeException e) {
            log.error("Could not route message {} to {}: {}", delivery.chat().getId(), to, e.toString());
            tracker.failed(Tracker.Failure.ofStore(e, "message not sent"));
        }
    }

    /** On the recipient's lane: relays to the other nodes where the recipient is online. */
    private void relayElsewhere(Delivery delivery) {
        String to = delivery.chat().getRecipient();
        for (String node : cluster.otherNodesOf(to)) {
            // Their sessions here have it already: nothing to hold for.
            relays.send(node, delivery.chat(), delivery.tracker(), inboxFirst.contains(to), Relays.Settled.NOTHING);
        }
    }

    private void broadcast(Delivery delivery, Session from, RouteGate gate) {
        for (UserEntry entry : users.entries()) {
            String user = entry.user();
            if (gate.mustQueue(user) || held(user)) {
                // Private messages to this user wait on their lane: follow them there.
                Tracker tracker = delivery.tracker();
                tracker.expect();
                gate.enter(user);
                lanes.of(user).execute(() -> {
                    try {
                        behindRelays(user, () -> {
                            try {
                                UserEntry now = users.get(user);
                                if (now != null) {
                                    now.offer(delivery, from, true);
                                }
                            } finally {
                                tracker.nobody();
                            }
                        });
                    } finally {
                        gate.leave(user);
                    }
                });
            } else {
                entry.offer(delivery, from, true);
            }
        }
        int others = cluster.peers();
        if (others > 0) {
            relays.broadcast(delivery.chat(), delivery.tracker(), others);
        }
    }

    /**
     * A relay nobody answered in time (the node may have died): stores the message in its recipient's
     * inbox, and pokes their sessions here and on the other nodes they are on, to read it.
     */
    private void storeUnanswered(Chat chat, Tracker tracker) {
        String user = chat.getRecipient();
        lanes.of(user).execute(() -> {
            try {
                inbox.store(user, List.of(chat));
                inboxFirst.add(user);
                tracker.stored();
            } catch (RuntimeException e) {
                log.error("Could not store unanswered relay {} for {}: {}", chat.getId(), user, e.toString());
                tracker.failed(Tracker.Failure.ofStore(e, "message not delivered"));
                return;
            }
            pokeHere(user);
            pokeOtherNodes(user);
        });
    }

    /** Tells the other nodes {@code user} is on, those whose heartbeat stopped too, to read their inbox. */
    private void pokeOtherNodes(String user) {
        cluster.tellOtherNodesOf(user, NodeMessage.newBuilder()
                .setPoke(NodeMessage.InboxPoke.newBuilder().setUser(user)), "to read their inbox");
    }

    /** Tells this node's sessions of {@code user} that their inbox has something for them. */
    public void pokeHere(String user) {
        UserEntry entry = users.get(user);
        if (entry != null) {
            for (Session session : entry.sessions()) {
                session.poke();
            }
        }
    }
}
