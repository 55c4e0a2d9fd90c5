package dev.cim.server.chat.routing;

import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.NodeMessage;
import dev.cim.server.chat.platform.UserLanes;
import dev.cim.server.chat.session.Delivery;
import dev.cim.server.chat.session.LocalUsers;
import dev.cim.server.chat.session.Tracker;
import dev.cim.server.chat.session.UserEntry;
import dev.cim.server.store.InboxStore;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What other nodes send this one, handled on a thread of its own, in the order it came: relayed
 * messages are delivered to the sessions here (and answered once those acknowledged, or stored),
 * answers to this node's relays settle them, pokes make sessions read their inbox; the rest (news
 * about scheduled messages, groups' posts and changes) goes to the parts above.
 */
public final class NodeReceiver implements Consumer<NodeMessage>, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(NodeReceiver.class);

    private final Cluster cluster;
    private final LocalUsers users;
    private final UserLanes lanes;
    private final InboxStore inbox;
    private final Router router;
    private final Consumer<NodeMessage> above;
    private final ExecutorService thread;
    private final RouteGate gate = new RouteGate();

    /**
     * @param above what the parts above routing handle (news of scheduled messages, groups' posts and
     *              changes), on this receiver's thread
     */
    public NodeReceiver(Cluster cluster, UserLanes lanes, InboxStore inbox, Router router,
            Consumer<NodeMessage> above) {
        this.cluster = cluster;
        this.users = cluster.users();
        this.lanes = lanes;
        this.inbox = inbox;
        this.router = router;
        this.above = above;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "cim-node-receiver");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void accept(NodeMessage message) {
        if (message.getFromNode().equals(cluster.nodeId())) {
            return; // our own broadcast: delivered here already
        }
        thread.execute(() -> {
            try {
                handle(message);
            } catch (RuntimeException e) {
                log.warn("Could not handle a {} from node {}: {}", message.getKindCase(), message.getFromNode(), e.toString());
            }
        });
    }

    private void handle(NodeMessage message) {
        switch (message.getKindCase()) {
            case RELAY -> relay(message.getFromNode(), message.getRelay());
            case RESOLVED -> router.relays().resolved(message.getFromNode(), message.getResolved());
            case POKE -> router.pokeHere(message.getPoke().getUser());
            default -> above.accept(message);
        }
    }

    private void relay(String from, NodeMessage.Relay relay) {
        Chat chat = relay.getChat();
        long relayId = relay.getRelayId();
        Tracker tracker = new Tracker(0, chat.getIdBytes(), chat.getRecipient(), (t, sessions, stored, failure) -> {
            if (failure == null) { // else no answer: the relaying node stores the message at its deadline
                cluster.send(from, NodeMessage.newBuilder().setResolved(NodeMessage.Resolved.newBuilder()
                        .setRelayId(relayId).setSessions(sessions).setStored(stored)));
            }
        });
        Delivery delivery = Delivery.of(chat, tracker);
        String to = chat.getRecipient();
        if (relay.getInboxFirst() || cluster.presenceInDoubt()) {
            router.pokeHere(to); // handed over before the message, so read before it
        }
        if (ChatRules.EVERYONE.equals(to)) {
            for (UserEntry entry : users.entries()) {
                entry.offer(delivery, null, true);
            }
            tracker.seal();
            return;
        }
        UserEntry own = users.get(chat.getSender());
        if (own != null && !chat.getSender().equals(to)) {
            own.offer(delivery, null, false); // the sender's terminals here
        }
        UserEntry entry = gate.mustQueue(to) ? null : users.get(to);
        if (entry != null && entry.offer(delivery, null, true) > 0) {
            tracker.seal();
            return;
        }
        // Not here (any more): the relaying node thought so; store it for them, in order.
        tracker.expect();
        gate.enter(to);
        lanes.of(to).execute(() -> {
            try {
                UserEntry now = users.get(to);
                if (now != null && now.offer(delivery, null, true) > 0) {
                    tracker.nobody();
                } else {
                    inbox.store(to, List.of(chat));
                    tracker.stored();
                }
            } catch (RuntimeException e) {
                log.error("Could not store relayed message {} for {}: {}", chat.getId(), to, e.toString());
                tracker.failed(Tracker.Failure.ofStore(e, "relayed message not stored"));
            } finally {
                gate.leave(to);
            }
        });
        tracker.seal();
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
