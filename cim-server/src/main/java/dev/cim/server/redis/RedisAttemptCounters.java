package dev.cim.server.redis;

import dev.cim.server.store.AttemptCounters;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.springframework.data.redis.core.RedisTemplate;

/**
 * Attempt counters as {@code cim:{t:<subject>}} hashes ({@code n}: the count, {@code last}: epoch ms
 * of the last attempt), each expiring {@code keep} after its last attempt (see {@link RedisKeys}).
 */
public final class RedisAttemptCounters implements AttemptCounters {

    /** KEYS[1] counter; ARGV: now ms, keep ms. Returns {count}. */
    private static final LuaScript ADD = new LuaScript("add-attempt", """
            local n = redis.call('HINCRBY', KEYS[1], 'n', 1)
            redis.call('HSET', KEYS[1], 'last', ARGV[1])
            redis.call('PEXPIRE', KEYS[1], ARGV[2])
            return {n}
            """);

    private final RedisTemplate<String, byte[]> redis;

    public RedisAttemptCounters(RedisTemplate<String, byte[]> redis) {
        this.redis = redis;
    }

    @Override
    public Count get(String subject) {
        List<Object> values = redis.opsForHash().multiGet(RedisKeys.attempts(subject), List.of("n", "last"));
        if (values.get(0) == null || values.get(1) == null) {
            return Count.NONE;
        }
        return new Count(RedisBytes.number(values.get(0)), Instant.ofEpochMilli(RedisBytes.number(values.get(1))));
    }

    @Override
    public Count add(String subject, Instant now, Duration keep) {
        Object reply = ADD.run(redis, List.of(RedisBytes.of(RedisKeys.attempts(subject))),
                List.of(RedisBytes.of(now.toEpochMilli()), RedisBytes.of(Math.max(1, keep.toMillis()))));
        return new Count(RedisBytes.number(((List<?>) reply).get(0)), now);
    }

    @Override
    public void clear(String subject) {
        redis.delete(RedisKeys.attempts(subject));
    }
}
