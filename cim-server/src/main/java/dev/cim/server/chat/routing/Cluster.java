package dev.cim.server.chat.routing;

import dev.cim.common.protocol.proto.NodeMessage;
import dev.cim.server.chat.session.LocalUsers;
import dev.cim.server.chat.session.UserEntry;
import dev.cim.server.store.NodeBus;
import dev.cim.server.store.PresenceStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node among the others: the users with sessions here, the other nodes a user is online on (as
 * the presence in the store says, less the nodes not alive), and the bus to those nodes. Which nodes
 * are alive is known without asking the store: the heartbeat tells {@link #live} every second or
 * so, so a lone node pays nothing for the chance of others, and a node that died stops counting
 * within its heartbeat's time to live (seconds), where the presence of its users would take the
 * presence's (30 s).
 */
public final class Cluster {

    private static final Logger log = LoggerFactory.getLogger(Cluster.class);

    private final LocalUsers users;
    private final PresenceStore presence;
    private final NodeBus bus;
    /** The other live nodes as of the last heartbeat. */
    private volatile Set<String> others = Set.of();
    /** The addresses of the live nodes as of the last heartbeat, this one first. */
    private volatile List<String> addresses = List.of();
    /** The live nodes as of the last heartbeat, each at its address. */
    private volatile Map<String, String> liveNodes = Map.of();
    /** The nodes that take no more logins, as of the last heartbeat. */
    private volatile Set<String> full = Set.of();
    /** True while the presence of this node's users may have lapsed in the store; see {@link #presenceInDoubt(boolean)}. */
    private volatile boolean presenceInDoubt;

    public Cluster(LocalUsers users, PresenceStore presence, NodeBus bus) {
        this.users = users;
        this.presence = presence;
        this.bus = bus;
    }

    /**
     * The heartbeat saw these nodes alive (this one may be among them), each at its address.
     *
     * @return the other nodes alive at the heartbeat before and no longer: those that died
     */
    public Set<String> live(Map<String, String> nodes) {
        Set<String> now = new HashSet<>(nodes.keySet());
        now.remove(nodeId());
        Set<String> gone = new HashSet<>(others);
        gone.removeAll(now);
        List<String> listed = new ArrayList<>(nodes.size());
        String own = nodes.get(nodeId());
        if (own != null) {
            listed.add(own);
        }
        nodes.forEach((node, address) -> {
            if (!node.equals(nodeId())) {
                listed.add(address);
            }
        });
        addresses = List.copyOf(listed);
        liveNodes = Map.copyOf(nodes);
        others = Set.copyOf(now);
        return gone;
    }

    /** The addresses of the live nodes as of the last heartbeat, this one first: what a client is told at login. */
    public List<String> addresses() {
        return addresses;
    }

    /** The heartbeat saw these nodes say they take no more logins. */
    public void full(Set<String> nodes) {
        full = Set.copyOf(nodes);
    }

    /**
     * The addresses of the other live nodes that took logins at the last heartbeat: where a full node
     * sends them.
     */
    public List<String> otherAddressesWithRoom() {
        Set<String> taking = full;
        List<String> others = new ArrayList<>();
        liveNodes.forEach((node, address) -> {
            if (!node.equals(nodeId()) && !taking.contains(node)) {
                others.add(address);
            }
        });
        return others;
    }

    /**
     * Whether the presence of this node's users may have lapsed in the store: the heartbeat is renewing
     * it or could not (true), or has renewed it and poked those whose had lapsed (false). While it may
     * have, the other nodes may have taken a user here for offline and stored a message in their
     * inbox, so a message relayed here has its recipient's sessions read their inbox first.
     */
    public void presenceInDoubt(boolean inDoubt) {
        presenceInDoubt = inDoubt;
    }

    /** True while the presence of this node's users may have lapsed in the store. */
    public boolean presenceInDoubt() {
        return presenceInDoubt;
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
        return peers() == 0;
    }

    /** How many other nodes were alive at the last heartbeat. */
    public int peers() {
        return others.size();
    }

    /**
     * The live nodes other than this one where {@code user} is online; asks the store. A node the
     * presence lists and the last heartbeat did not see is asked about (one that started since is
     * alive; one that died, a predecessor of this node included, is not, whatever its users'
     * presence says).
     */
    public Set<String> otherNodesOf(String user) {
        Set<String> nodes = new HashSet<>(presence.nodesOf(user));
        nodes.remove(nodeId());
        nodes.removeIf(node -> !isAlive(node));
        return nodes;
    }

    /**
     * True when {@code node}, another node, is alive: seen by the last heartbeat, or (one that started
     * since) its liveness key is in the store.
     */
    public boolean isAlive(String node) {
        return others.contains(node) || presence.isAlive(node);
    }

    /** True when {@code user} has a session here, or (other nodes being alive) on another node. */
    public boolean onlineAnywhere(String user) {
        UserEntry entry = users.get(user);
        if (entry != null && entry.size() > 0) {
            return true;
        }
        return !alone() && !otherNodesOf(user).isEmpty();
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
     * Sends {@code message} to each other node where {@code user} is online, as the presence says:
     * those whose heartbeat stopped too (a node frozen for a while reads what the bus kept for it
     * when it resumes, and its sessions then hear the news). A failure is logged (the message only
     * tells those nodes about something they can also learn later).
     */
    public void tellOtherNodesOf(String user, NodeMessage.Builder message, String what) {
        try {
            for (String node : presence.nodesOf(user)) {
                if (!node.equals(nodeId())) {
                    send(node, message);
                }
            }
        } catch (RuntimeException e) {
            log.warn("Could not tell the other nodes of {} {}: {}", user, what, e.toString());
        }
    }
}
