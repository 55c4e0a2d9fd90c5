package dev.cim.server.presence;

import dev.cim.server.redis.RedisKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Presence in Redis under the keys described in {@link RedisKeys}: a {@code cim:presence:<user>}
 * hash of node &rarr; session count, a {@code cim:node:<node>} liveness key, and a
 * {@code cim:node:<node>:users} set; all expire {@code ttl} after their last refresh.
 */
public final class RedisPresenceStore implements PresenceStore {

    private final StringRedisTemplate redis;
    private final String nodeId;
    private final Duration ttl;

    public RedisPresenceStore(StringRedisTemplate redis, String nodeId, Duration ttl) {
        this.redis = redis;
        this.nodeId = nodeId;
        this.ttl = ttl;
    }

    @Override
    public String nodeId() {
        return nodeId;
    }

    @Override
    public void registerNode(String address) {
        redis.opsForValue().set(RedisKeys.node(nodeId), address, ttl);
        redis.opsForSet().add(RedisKeys.NODES, nodeId);
    }

    @Override
    public void userOnline(String user, int sessions) {
        pipelined(ops -> {
            ops.opsForHash().put(RedisKeys.presence(user), nodeId, Integer.toString(sessions));
            ops.expire(RedisKeys.presence(user), ttl);
            ops.opsForSet().add(RedisKeys.nodeUsers(nodeId), user);
            ops.expire(RedisKeys.nodeUsers(nodeId), ttl);
        });
    }

    @Override
    public void userOffline(String user) {
        pipelined(ops -> {
            ops.opsForHash().delete(RedisKeys.presence(user), nodeId);
            ops.opsForSet().remove(RedisKeys.nodeUsers(nodeId), user);
        });
    }

    @Override
    public void refresh(String address, Map<String, Integer> users) {
        // One round trip whatever the number of users.
        pipelined(ops -> {
            ops.opsForValue().set(RedisKeys.node(nodeId), address, ttl);
            ops.opsForSet().add(RedisKeys.NODES, nodeId);
            users.forEach((user, sessions) -> {
                ops.opsForHash().put(RedisKeys.presence(user), nodeId, Integer.toString(sessions));
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
        for (String node : liveNodes()) {
            Set<String> members = redis.opsForSet().members(RedisKeys.nodeUsers(node));
            if (members != null) {
                users.addAll(members);
            }
        }
        return new ArrayList<>(users);
    }

    @Override
    public Set<String> nodesOf(String user) {
        Set<Object> fields = redis.opsForHash().keys(RedisKeys.presence(user));
        Set<String> nodes = new HashSet<>();
        for (Object field : fields) {
            String node = (String) field;
            if (node.equals(nodeId) || Boolean.TRUE.equals(redis.hasKey(RedisKeys.node(node)))) {
                nodes.add(node);
            }
        }
        return nodes;
    }

    @Override
    public Set<String> liveNodes() {
        Set<String> registered = redis.opsForSet().members(RedisKeys.NODES);
        Set<String> live = new TreeSet<>();
        if (registered == null) {
            return live;
        }
        for (String node : registered) {
            if (Boolean.TRUE.equals(redis.hasKey(RedisKeys.node(node)))) {
                live.add(node);
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
