package dev.cim.server.chat.routing;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.NodeMessage;
import dev.cim.common.wheel.DelayScheduler;
import dev.cim.common.wheel.Job;
import dev.cim.common.wheel.ScheduledJob;
import dev.cim.server.chat.session.Tracker;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Messages handed to other nodes, waiting for their answer. The node bus may lose a message (a node
 * that dies, a subscription that drops), so each relay has a deadline, on the delay wheel: a private
 * message not answered by then is stored in the recipient's inbox instead (they get it at their next
 * login, or at once if they are online: their sessions are poked), and a broadcast counts the nodes
 * that did not answer as done.
 */
public final class Relays {

    private static final Logger log = LoggerFactory.getLogger(Relays.class);

    /** Told once a private relay is settled, on the thread that settled it (the bus's or the wheel's). */
    interface Settled {

        Settled NOTHING = (answered, storedThere) -> { };

        /**
         * @param answered    the other node answered (false: it did not in time, and the message was
         *                    handed to {@code storeInstead})
         * @param storedThere the other node answered that it stored the message in the recipient's
         *                    inbox (false when it delivered it, or did not answer)
         */
        void settled(boolean answered, boolean storedThere);
    }

    private final class Waiting {
        final Chat chat;
        final Tracker tracker;
        final String node;
        final Settled settled;
        int remaining;
        ScheduledJob deadline;

        Waiting(Chat chat, Tracker tracker, String node, Settled settled, int remaining) {
            this.chat = chat;
            this.tracker = tracker;
            this.node = node;
            this.settled = settled;
            this.remaining = remaining;
        }
    }

    private final Cluster cluster;
    private final DelayScheduler wheel;
    private final Duration timeout;
    private final BiConsumer<Chat, Tracker> storeInstead;
    private final ConcurrentHashMap<Long, Waiting> waiting = new ConcurrentHashMap<>();
    private final AtomicLong lastId = new AtomicLong();

    /**
     * @param storeInstead stores a private message whose relay timed out (the tracker has a part open
     *                     for it, to be done by the store)
     */
    Relays(Cluster cluster, DelayScheduler wheel, Duration timeout, BiConsumer<Chat, Tracker> storeInstead) {
        this.cluster = cluster;
        this.wheel = wheel;
        this.timeout = timeout;
        this.storeInstead = storeInstead;
    }

    /**
     * Relays a private message to {@code node}; a part of {@code tracker} until it answers, and
     * {@code settled} told once it did or its deadline passed (once, unless this throws).
     *
     * @param inboxFirst the recipient's sessions there are to read their inbox before this message
     * @throws java.util.concurrent.RejectedExecutionException when the wheel is stopping
     */
    void send(String node, Chat chat, Tracker tracker, boolean inboxFirst, Settled settled) {
        long id = lastId.incrementAndGet();
        Waiting w = new Waiting(chat, tracker, node, settled, 1);
        w.deadline = wheel.schedule(Job.of("relay " + chat.getId() + " to " + node, () -> timedOut(id)), timeout);
        tracker.expect();
        waiting.put(id, w);
        try {
            cluster.send(node, NodeMessage.newBuilder().setRelay(NodeMessage.Relay.newBuilder().setRelayId(id).setChat(chat)
                    .setInboxFirst(inboxFirst)));
        } catch (RuntimeException e) {
            // Like a message the bus lost: the deadline stores it instead.
            log.warn("Could not relay {} to node {}: {}", chat.getId(), node, e.toString());
        }
    }

    /** Relays a message to everyone to the {@code peers} other nodes; a part of {@code tracker} each. */
    void broadcast(Chat chat, Tracker tracker, int peers) {
        long id = lastId.incrementAndGet();
        Waiting w = new Waiting(chat, tracker, null, Settled.NOTHING, peers);
        w.deadline = wheel.schedule(Job.of("broadcast " + chat.getId(), () -> timedOut(id)), timeout);
        for (int i = 0; i < peers; i++) {
            tracker.expect();
        }
        waiting.put(id, w);
        try {
            cluster.broadcast(NodeMessage.newBuilder().setRelay(NodeMessage.Relay.newBuilder().setRelayId(id).setChat(chat)));
        } catch (RuntimeException e) {
            log.warn("Could not broadcast {} to the other nodes: {}", chat.getId(), e.toString());
        }
    }

    /** A node answered a relay. */
    public void resolved(String from, NodeMessage.Resolved resolved) {
        Waiting w = waiting.get(resolved.getRelayId());
        if (w == null) {
            log.debug("Answer from {} to relay {} came after its deadline", from, resolved.getRelayId());
            return;
        }
        boolean last;
        synchronized (w) {
            if (w.remaining == 0) {
                return;
            }
            w.remaining--;
            last = w.remaining == 0;
        }
        if (last) {
            waiting.remove(resolved.getRelayId());
            w.deadline.cancel();
        }
        w.tracker.remote(resolved.getSessions(), resolved.getStored());
        if (last) {
            w.settled.settled(true, resolved.getStored());
        }
    }

    /**
     * {@code nodes} died (the heartbeat no longer sees them): what waits for their answer is settled
     * now as if its deadline had passed (a private message stored in the inbox, a broadcast counted),
     * not a relay timeout later.
     */
    public void nodesGone(Set<String> nodes) {
        waiting.forEach((id, w) -> {
            if (w.node != null && nodes.contains(w.node)) {
                w.deadline.cancel();
                timedOut(id);
            }
        });
    }

    private void timedOut(long id) {
        Waiting w = waiting.remove(id);
        if (w == null) {
            return;
        }
        int left;
        synchronized (w) {
            left = w.remaining;
            w.remaining = 0;
        }
        if (w.node == null) {
            log.warn("{} node(s) did not answer broadcast {} within {}", left, w.chat.getId(), timeout);
            for (int i = 0; i < left; i++) {
                w.tracker.nobody();
            }
        } else if (left > 0) {
            log.warn("Node {} did not answer relay of {} within {}; storing it for {}", w.node, w.chat.getId(),
                    timeout, w.chat.getRecipient());
            storeInstead.accept(w.chat, w.tracker);
            w.settled.settled(false, false);
        }
    }

    /** Relays waiting for an answer. */
    public int waiting() {
        return waiting.size();
    }
}
