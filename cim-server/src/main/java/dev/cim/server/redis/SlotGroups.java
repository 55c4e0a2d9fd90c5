package dev.cim.server.redis;

import io.lettuce.core.cluster.SlotHash;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Gathers the keys of many small writes into as few script calls as the deployment allows: all of
 * them in one call on a single Redis, one call per hash slot on a Redis Cluster, where the keys of one
 * script must share a slot. A batch of history writes for 512 messages is then one script call on a
 * single Redis instead of 512 (Redis's cost is mostly per call, not per key).
 */
final class SlotGroups {

    private final boolean cluster;

    SlotGroups(RedisConnectionFactory connections) {
        this.cluster = connections instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware();
    }

    /**
     * {@code items} in groups whose keys may go to one script call, each group in the order of
     * {@code items}.
     *
     * @param key an item's key, as Redis sees it
     */
    <T> Collection<List<T>> split(Collection<T> items, Function<T, byte[]> key) {
        if (!cluster) {
            return items.isEmpty() ? List.of() : List.of(new ArrayList<>(items));
        }
        Map<Integer, List<T>> bySlot = new LinkedHashMap<>();
        for (T item : items) {
            bySlot.computeIfAbsent(SlotHash.getSlot(key.apply(item)), slot -> new ArrayList<>()).add(item);
        }
        return bySlot.values();
    }
}
