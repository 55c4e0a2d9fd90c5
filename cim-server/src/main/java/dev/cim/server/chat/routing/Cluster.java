package dev.cim.server.chat.routing;

import dev.cim.common.protocol.proto.NodeMessage;
import dev.cim.server.chat.session.LocalUsers;
import dev.cim.server.chat.session.UserEntry;
import dev.cim.server.store.NodeBus;
import dev.cim.server.store.PresenceStore;
import java.util.HashSet;
import java.util.Set;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node among the others: the users with sessions here, the other nodes a user is online on (as
 * the presence in the store says), and the bus to those nodes. {@link #alone()} is known without
 * asking the store (the presence heartbeat counts the other live nodes), so a lone node pays nothing
 * for the chance of others.
 */
public final class Cluster {

    private static final Logger log = LoggerFactory.getLogger(Cluster.class);

    private final LocalUsers users;
    private final PresenceStore presence;
    private final NodeBus bus;
    private final IntSupplier peers;

    /**
     * @param peers how many other nodes are alive, as of the last presence heartbeat
     */
    public Cluster(LocalUsers users, PresenceStore presence, NodeBus bus, IntSupplier peers) {
        this.users = users;
        this.presence = presence;
        this.bus = bus;
        this.peers = peers;
    }

    /** This node's id. */
    public String nodeId() {
        return presence.nodeId();
    }

    /** The users with sessions on this node. */
    public LocalUsers users() {
        return users;
    }

    /** {@code user}'s sessions on this node, or null when they have none here. */
    public UserEntry here(String user) {
        return users.get(user);
    }

    /** True when no other node was alive at the last heartbeat. */
    public boolean alone() {
        return peers.getAsInt() == 0;
    }

    /** How many other nodes were alive at the last heartbeat. */
    public int peers() {
        return peers.getAsInt();
    }

    /** The nodes other than this one where {@code user} is online; asks the store. */
    public Set<String> otherNodesOf(String user) {
        Set<String> nodes = presence.nodesOf(user);
        if (!nodes.contains(nodeId())) {
            return nodes;
        }
        Set<String> others = new HashSet<>(nodes);
        others.remove(nodeId());
        return others;
    }

    /** True when {@code user} has a session here, or (other nodes being alive) on another node. */
    public boolean onlineAnywhere(String user) {
        UserEntry entry = users.get(user);
        if (entry != null && entry.size() > 0) {
            return true;
        }
        return !alone() && !presence.nodesOf(user).isEmpty();
    }

    /** Sends {@code message}, from this node, to {@code node}. */
    public void send(String node, NodeMessage.Builder message) {
        bus.send(node, message.setFromNode(nodeId()).build());
    }

    /** Sends {@code message}, from this node, to every other node. */
    public void broadcast(NodeMessage.Builder message) {
        bus.broadcast(message.setFromNode(nodeId()).build());
    }

    /**
     * Sends {@code message} to each other node where {@code user} is online; a failure is logged (the
     * message only tells those nodes about something they can also learn later).
     */
    public void tellOtherNodesOf(String user, NodeMessage.Builder message, String what) {
        try {
            for (String node : otherNodesOf(user)) {
                send(node, message);
            }
        } catch (RuntimeException e) {
            log.warn("Could not tell the other nodes of {} {}: {}", user, what, e.toString());
        }
    }
}
