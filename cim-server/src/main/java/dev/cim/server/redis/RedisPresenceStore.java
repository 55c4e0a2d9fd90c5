package dev.cim.server.redis;

import dev.cim.server.store.PresenceStore;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Presence in Redis under the keys described in {@link RedisKeys}: a {@code cim:{u:<user>}:presence}
 * hash of node &rarr; {@code <sessions>:<expires at>}, a {@code cim:node:<node>} liveness key and a
 * {@code cim:node:<node>:users} set. Each field carries its own expiry, so a node that died drops
 * out of the presence of users who are also online elsewhere (whose key other nodes keep renewing)
 * within the time to live, and a script can tell a dead node's field without reading other keys.
 * The liveness key lives much shorter (seconds, renewed by each heartbeat): the other nodes see a
 * node die by it long before its users' presence runs out.
 */
public final class RedisPresenceStore implements PresenceStore {

    private final StringRedisTemplate redis;
    private final String nodeId;
    private final Duration ttl;
    private final Duration nodeTtl;
    private final LongSupplier clock;

    /**
     * @param ttl     how long the presence of this node's users lives without a refresh
     * @param nodeTtl how long this node's liveness key lives without a heartbeat
     */
    public RedisPresenceStore(StringRedisTemplate redis, String nodeId, Duration ttl, Duration nodeTtl,
            LongSupplier clock) {
        this.redis = redis;
        this.nodeId = nodeId;
        this.ttl = ttl;
        this.nodeTtl = nodeTtl;
        this.clock = clock;
    }

    @Override
    public String nodeId() {
        return nodeId;
    }

    /**
     * Also clears what a previous life of this node id left (a node killed and started again under
     * the same {@code cim.server.node-id}): its users' presence here, which would otherwise say for a
     * time to live that they are online on a node that has no session of theirs.
     */
    @Override
    public void registerNode(String address) {
        heartbeat(address); // first, as the first Redis call of a start: its failure says why (a wrong password)
        Set<String> stale = redis.opsForSet().members(RedisKeys.nodeUsers(nodeId));
        if (stale != null && !stale.isEmpty()) {
            pipelined(ops -> {
                stale.forEach(user -> ops.opsForHash().delete(RedisKeys.presence(user), nodeId));
                ops.delete(RedisKeys.nodeUsers(nodeId));
            });
        }
    }

    @Override
    public void heartbeat(String address) {
        pipelined(ops -> {
            ops.opsForValue().set(RedisKeys.node(nodeId), address, nodeTtl);
            ops.opsForSet().add(RedisKeys.NODES, nodeId);
        });
    }

    private String field(int sessions) {
        return sessions + ":" + (clock.getAsLong() + ttl.toMillis());
    }

    @Override
    public void sessions(String user, int sessions) {
        if (sessions > 0) {
            String value = field(sessions);
            pipelined(ops -> {
                ops.opsForHash().put(RedisKeys.presence(user), nodeId, value);
                ops.expire(RedisKeys.presence(user), ttl);
                ops.opsForSet().add(RedisKeys.nodeUsers(nodeId), user);
                ops.expire(RedisKeys.nodeUsers(nodeId), ttl);
            });
        } else {
            pipelined(ops -> {
                ops.opsForHash().delete(RedisKeys.presence(user), nodeId);
                ops.opsForSet().remove(RedisKeys.nodeUsers(nodeId), user);
            });
        }
    }

    @Override
    public void refresh(String address, Map<String, Integer> users) {
        // One round trip whatever the number of users.
        pipelined(ops -> {
            ops.opsForValue().set(RedisKeys.node(nodeId), address, nodeTtl);
            ops.opsForSet().add(RedisKeys.NODES, nodeId);
            users.forEach((user, sessions) -> {
                ops.opsForHash().put(RedisKeys.presence(user), nodeId, field(sessions));
                ops.expire(RedisKeys.presence(user), ttl);
            });
            if (!users.isEmpty()) {
                ops.opsForSet().add(RedisKeys.nodeUsers(nodeId), users.keySet().toArray(String[]::new));
                ops.expire(RedisKeys.nodeUsers(nodeId), ttl);
            }
        });
    }

    @Override
    public void unregisterNode(Iterable<String> users) {
        pipelined(ops -> {
            users.forEach(user -> ops.opsForHash().delete(RedisKeys.presence(user), nodeId));
            ops.delete(List.of(RedisKeys.node(nodeId), RedisKeys.nodeUsers(nodeId)));
            ops.opsForSet().remove(RedisKeys.NODES, nodeId);
        });
    }

    @Override
    public List<String> onlineUsers() {
        Set<String> users = new TreeSet<>();
        for (String node : liveNodes().keySet()) {
            Set<String> members = redis.opsForSet().members(RedisKeys.nodeUsers(node));
            if (members != null) {
                users.addAll(members);
            }
        }
        return List.copyOf(users);
    }

    @Override
    public Set<String> nodesOf(String user) {
        Map<Object, Object> fields = redis.opsForHash().entries(RedisKeys.presence(user));
        long now = clock.getAsLong();
        Set<String> nodes = new HashSet<>();
        fields.forEach((node, value) -> {
            String text = (String) value;
            int colon = text.indexOf(':');
            if (colon > 0 && Long.parseLong(text.substring(colon + 1)) > now) {
                nodes.add((String) node);
            }
        });
        return nodes;
    }

    @Override
    public boolean isAlive(String node) {
        return Boolean.TRUE.equals(redis.hasKey(RedisKeys.node(node)));
    }

    @Override
    public Map<String, String> liveNodes() {
        Set<String> registered = redis.opsForSet().members(RedisKeys.NODES);
        Map<String, String> live = new TreeMap<>();
        if (registered == null) {
            return live;
        }
        for (String node : registered) {
            String address = redis.opsForValue().get(RedisKeys.node(node));
            if (address != null) {
                live.put(node, address);
            } else {
                redis.opsForSet().remove(RedisKeys.NODES, node);
            }
        }
        return live;
    }

    private interface Commands {
        void run(RedisOperations<String, String> ops);
    }

    private void pipelined(Commands commands) {
        redis.executePipelined(new SessionCallback<Object>() {
            @Override
            @SuppressWarnings("unchecked")
            public <K, V> Object execute(RedisOperations<K, V> operations) throws DataAccessException {
                commands.run((RedisOperations<String, String>) operations);
                return null;
            }
        });
    }

}
