package dev.cim.server.store;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Who is online on which node, shared by all nodes. Every method is about this node's part, except
 * the readers {@link #onlineUsers()}, {@link #nodesOf(String)} and {@link #liveNodes()}, which see
 * every live node.
 *
 * <p>Implementations block; callers run them off the I/O threads.
 */
public interface PresenceStore {

    /** This node's id. */
    String nodeId();

    /** Announces this node as alive at {@code address}; also the start-up check that the store answers. */
    void registerNode(String address);

    /** Marks {@code user} online on this node with {@code sessions} sessions (0: offline here). */
    void sessions(String user, int sessions);

    /** Renews this node's liveness: its heartbeat, every second or so. */
    void heartbeat(String address);

    /**
     * Whether this node takes no more logins ({@code cim.server.limits.max-connections}): told to the
     * other nodes from its next heartbeat on, so that they send logins they cannot take elsewhere.
     * Does not block.
     */
    void full(boolean full);

    /** The live nodes that said at their last heartbeat that they take no more logins. */
    Set<String> fullNodes();

    /**
     * Renews this node's liveness and the presence of its users, given with their session counts.
     * Tells {@code lapsed} each of them whose presence here had lapsed (expired, or lost by the store)
     * before this renewed it: meanwhile they counted as offline, so messages to them may have gone to
     * their inbox, unknown to their sessions. It is told even when a part of the refresh fails, and
     * the failure is thrown after.
     */
    void refresh(String address, Map<String, Integer> users, Consumer<String> lapsed);

    /** Removes this node and the presence of {@code users}, its users, at shutdown. */
    void unregisterNode(Iterable<String> users);

    /** The users online on any live node, sorted by name. */
    List<String> onlineUsers();

    /** The live nodes on which {@code user} is online; empty when offline everywhere. */
    Set<String> nodesOf(String user);

    /** True when {@code node}'s liveness key has not expired. */
    boolean isAlive(String node);

    /** Every live node with its address ({@code host:port}), this one included. */
    Map<String, String> liveNodes();
}
