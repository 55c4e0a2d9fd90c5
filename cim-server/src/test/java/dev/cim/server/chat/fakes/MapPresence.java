package dev.cim.server.chat.fakes;

import dev.cim.server.store.PresenceStore;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/** Presence in a map the test changes: which nodes each user is on, and the live nodes' addresses. */
public final class MapPresence implements PresenceStore {

    private final String nodeId;
    private final Map<String, Set<String>> where;
    private final Map<String, String> liveNodes;

    /**
     * @param where     user to the nodes they are on, read at each call
     * @param liveNodes node to its address
     */
    public MapPresence(String nodeId, Map<String, Set<String>> where, Map<String, String> liveNodes) {
        this.nodeId = nodeId;
        this.where = where;
        this.liveNodes = liveNodes;
    }

    @Override
    public void heartbeat(String address) {
    }

    @Override
    public void full(boolean full) {
    }

    @Override
    public Set<String> fullNodes() {
        return Set.of();
    }

    @Override
    public boolean isAlive(String node) {
        return liveNodes().containsKey(node);
    }

    @Override
    public String nodeId() {
        return nodeId;
    }

    @Override
    public void registerNode(String address) {
    }

    @Override
    public void sessions(String user, int sessions) {
    }

    @Override
    public void refresh(String address, Map<String, Integer> users, Consumer<String> lapsed) {
    }

    @Override
    public void unregisterNode(Iterable<String> users) {
    }

    @Override
    public List<String> onlineUsers() {
        return List.copyOf(where.keySet());
    }

    @Override
    public Set<String> nodesOf(String user) {
        return where.getOrDefault(user, Set.of());
    }

    @Override
    public Map<String, String> liveNodes() {
        return liveNodes;
    }
}
