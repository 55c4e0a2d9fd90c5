package dev.cim.server.redis;

import dev.cim.common.protocol.MessageIds;
import dev.cim.server.store.OriginStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.springframework.data.redis.core.StringRedisTemplate;

/** Origin watermarks as {@code cim:{u:<user>}:origins} hashes of origin &rarr; watermark, expiring with disuse. */
public final class RedisOriginStore implements OriginStore {

    private final StringRedisTemplate redis;
    private final Duration retention;

    /**
     * @param retention how long a user's origins are kept after the last write
     */
    public RedisOriginStore(StringRedisTemplate redis, Duration retention) {
        this.redis = redis;
        this.retention = retention;
    }

    @Override
    public long watermark(String user, long origin) {
        Object value = redis.opsForHash().get(RedisKeys.origins(user), MessageIds.origin(origin));
        return value == null ? 0 : Long.parseLong((String) value);
    }

    @Override
    public void save(Map<String, Map<Long, Long>> watermarks) {
        if (watermarks.isEmpty()) {
            return;
        }
        RedisBatch.run(redis, (r, sent) -> watermarks.forEach((user, origins) -> {
            Map<byte[], byte[]> fields = new HashMap<>();
            origins.forEach((origin, watermark) -> fields.put(RedisBytes.of(MessageIds.origin(origin)),
                    RedisBytes.of(watermark)));
            byte[] key = RedisBytes.of(RedisKeys.origins(user));
            sent.add(r.hset(key, fields));
            sent.add(r.pexpire(key, retention));
        }));
    }
}
