package dev.cim.server.redis;

import dev.cim.server.store.PresenceStore;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
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

    /** Users whose presence one script call of a refresh renews, at most. */
    static final int REFRESH_CALL = 1000;

    // KEYS: presence hashes. ARGV: this node's field, ttl ms, now ms, then each key's value. Sets the
    // field and renews the hash's time to live; returns the positions (from 1) of the keys whose field
    // was gone or past its expiry, as the store-if-offline script reads it: lapsed.
    private static final LuaScript REFRESH = new LuaScript("presence-refresh", """
            local now = tonumber(ARGV[3])
            local lapsed = {}
            for k = 1, #KEYS do
              local old = redis.call('HGET', KEYS[k], ARGV[1])
              local colon = old and string.find(old, ':', 1, true)
              if not colon or tonumber(string.sub(old, colon + 1)) <= now then
                table.insert(lapsed, k)
              end
              redis.call('HSET', KEYS[k], ARGV[1], ARGV[k + 3])
              redis.call('PEXPIRE', KEYS[k], ARGV[2])
            end
            return lapsed
            """);

    private final StringRedisTemplate redis;
    /** The liveness keys' connection: {@link #redis}'s, or one of their own (see {@link OwnRedisConnection}). */
    private final StringRedisTemplate liveness;
    private final String nodeId;
    private final Duration ttl;
    private final Duration nodeTtl;
    private final LongSupplier clock;
    /** {@link #nodeId} as Redis holds it: the field of this node in each presence hash. */
    private final byte[] node;
    private final SlotGroups slots;
    /** What the next heartbeat says: whether this node takes no more logins. */
    private volatile boolean full;

    /**
     * Presence and liveness over one connection.
     *
     * @param ttl     how long the presence of this node's users lives without a refresh
     * @param nodeTtl how long this node's liveness key lives without a heartbeat
     */
    public RedisPresenceStore(StringRedisTemplate redis, String nodeId, Duration ttl, Duration nodeTtl,
            LongSupplier clock) {
        this(redis, redis, nodeId, ttl, nodeTtl, clock);
    }

    /**
     * @param liveness the connection of the heartbeat (this node's liveness key) and of the read of
     *                 which nodes are alive, so that they do not wait behind the traffic on {@code redis}
     * @param ttl      how long the presence of this node's users lives without a refresh
     * @param nodeTtl  how long this node's liveness key lives without a heartbeat
     */
    public RedisPresenceStore(StringRedisTemplate redis, StringRedisTemplate liveness, String nodeId, Duration ttl,
            Duration nodeTtl, LongSupplier clock) {
        this.redis = redis;
        this.liveness = liveness;
        this.nodeId = nodeId;
        this.ttl = ttl;
        this.nodeTtl = nodeTtl;
        this.clock = clock;
        this.node = RedisBytes.of(nodeId);
        this.slots = new SlotGroups(redis.getRequiredConnectionFactory());
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
            batch((r, sent) -> {
                stale.forEach(user -> sent.add(r.hdel(key(RedisKeys.presence(user)), node)));
                sent.add(r.del(key(RedisKeys.nodeUsers(nodeId))));
            });
        }
    }

    /**
     * This node's liveness key, renewed, its name among the nodes, and among the full ones or not,
     * over the liveness connection.
     */
    @Override
    public void heartbeat(String address) {
        boolean takesNoMore = full;
        RedisBatch.run(liveness, (r, sent) -> {
            sent.add(r.set(key(RedisKeys.node(nodeId)), RedisBytes.of(address), SetArgs.Builder.px(nodeTtl)));
            sent.add(r.sadd(key(RedisKeys.NODES), node));
            sent.add(takesNoMore ? r.sadd(key(RedisKeys.FULL_NODES), node) : r.srem(key(RedisKeys.FULL_NODES), node));
        });
    }

    @Override
    public void full(boolean full) {
        this.full = full;
    }

    /** Over the liveness connection; a node that died full stays in the set until {@link #liveNodes()} sees it dead. */
    @Override
    public Set<String> fullNodes() {
        Set<String> full = liveness.opsForSet().members(RedisKeys.FULL_NODES);
        return full == null ? Set.of() : full;
    }

    private String field(int sessions) {
        return sessions + ":" + (clock.getAsLong() + ttl.toMillis());
    }

    @Override
    public void sessions(String user, int sessions) {
        if (sessions > 0) {
            byte[] value = RedisBytes.of(field(sessions));
            batch((r, sent) -> {
                byte[] presence = key(RedisKeys.presence(user));
                sent.add(r.hset(presence, node, value));
                sent.add(r.pexpire(presence, ttl));
                sent.add(r.sadd(key(RedisKeys.nodeUsers(nodeId)), RedisBytes.of(user)));
                sent.add(r.pexpire(key(RedisKeys.nodeUsers(nodeId)), ttl));
            });
        } else {
            batch((r, sent) -> {
                sent.add(r.hdel(key(RedisKeys.presence(user)), node));
                sent.add(r.srem(key(RedisKeys.nodeUsers(nodeId)), RedisBytes.of(user)));
            });
        }
    }

    /**
     * The heartbeat, then the node's user set in one batch and the presence hashes by script calls of
     * up to {@link #REFRESH_CALL} users (per hash slot on a cluster), each sent whatever became of the
     * one before, the first failure thrown after: a master failing over holds up only its own keys,
     * and the other users' presence is still renewed in time.
     */
    @Override
    public void refresh(String address, Map<String, Integer> users, Consumer<String> lapsed) {
        RuntimeException failure = attempt(() -> heartbeat(address), null);
        if (!users.isEmpty()) {
            failure = attempt(() -> batch((r, sent) -> {
                sent.add(r.sadd(key(RedisKeys.nodeUsers(nodeId)),
                        users.keySet().stream().map(RedisBytes::of).toArray(byte[][]::new)));
                sent.add(r.pexpire(key(RedisKeys.nodeUsers(nodeId)), ttl));
            }), failure);
            RuntimeException renewing = renew(users, lapsed);
            failure = failure != null ? failure : renewing;
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Runs {@code step}; returns {@code first} if there was one, else what {@code step} failed with, or null. */
    private static RuntimeException attempt(Runnable step, RuntimeException first) {
        try {
            step.run();
        } catch (RuntimeException e) {
            return first != null ? first : e;
        }
        return first;
    }

    /**
     * Renews the presence hashes of {@code users} by script calls of up to {@link #REFRESH_CALL} users
     * (per hash slot on a cluster), all in one round trip, and tells {@code lapsed} those whose
     * presence had lapsed.
     *
     * @return the first call's failure, or null
     */
    private RuntimeException renew(Map<String, Integer> users, Consumer<String> lapsed) {
        byte[] now = RedisBytes.of(clock.getAsLong());
        List<List<String>> names = new ArrayList<>();
        List<LuaScript.Call> calls = new ArrayList<>();
        for (List<Map.Entry<String, Integer>> group : slots.split(users.entrySet(),
                user -> key(RedisKeys.presence(user.getKey())))) {
            for (int from = 0; from < group.size(); from += REFRESH_CALL) {
                List<Map.Entry<String, Integer>> part = group.subList(from, Math.min(group.size(), from + REFRESH_CALL));
                List<byte[]> keys = new ArrayList<>(part.size());
                List<byte[]> args = new ArrayList<>(part.size() + 3);
                args.add(node);
                args.add(RedisBytes.of(ttl.toMillis()));
                args.add(now);
                part.forEach(user -> {
                    keys.add(key(RedisKeys.presence(user.getKey())));
                    args.add(RedisBytes.of(field(user.getValue())));
                });
                names.add(part.stream().map(Map.Entry::getKey).toList());
                calls.add(new LuaScript.Call(keys, args));
            }
        }
        RuntimeException failure = null;
        List<Object> results = REFRESH.runAll(redis, calls);
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i) instanceof List<?> positions) {
                for (Object position : positions) {
                    lapsed.accept(names.get(i).get((int) RedisBytes.number(position) - 1));
                }
            } else if (failure == null && results.get(i) instanceof RuntimeException e) {
                failure = e;
            }
        }
        return failure;
    }

    @Override
    public void unregisterNode(Iterable<String> users) {
        batch((r, sent) -> {
            users.forEach(user -> sent.add(r.hdel(key(RedisKeys.presence(user)), node)));
            sent.add(r.del(key(RedisKeys.node(nodeId))));
            sent.add(r.del(key(RedisKeys.nodeUsers(nodeId))));
            sent.add(r.srem(key(RedisKeys.NODES), node));
            sent.add(r.srem(key(RedisKeys.FULL_NODES), node));
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

    /** Over the liveness connection, like the heartbeat that calls it. */
    @Override
    public Map<String, String> liveNodes() {
        Set<String> registered = liveness.opsForSet().members(RedisKeys.NODES);
        Map<String, String> live = new TreeMap<>();
        if (registered == null) {
            return live;
        }
        List<String> nodes = List.copyOf(registered);
        // Every node's liveness key in one round trip: each node reads this every heartbeat.
        List<Object> addresses = RedisBatch.run(liveness,
                (r, sent) -> nodes.forEach(node -> sent.add(r.get(key(RedisKeys.node(node))))));
        for (int i = 0; i < nodes.size(); i++) {
            if (addresses.get(i) instanceof byte[] address) {
                live.put(nodes.get(i), RedisBytes.text(address));
            } else {
                liveness.opsForSet().remove(RedisKeys.NODES, nodes.get(i));
                liveness.opsForSet().remove(RedisKeys.FULL_NODES, nodes.get(i));
            }
        }
        return live;
    }

    private void batch(RedisBatch.Commands commands) {
        RedisBatch.run(redis, commands);
    }

    private static byte[] key(String key) {
        return RedisBytes.of(key);
    }

}
