package dev.cim.server.redis;

import dev.cim.server.store.AttemptCounters;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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

    private static final byte[] N = RedisBytes.of("n");
    private static final byte[] LAST = RedisBytes.of("last");

    public RedisAttemptCounters(RedisTemplate<String, byte[]> redis) {
        this.redis = redis;
    }

    @Override
    public Count get(String subject) {
        List<Object> values = redis.opsForHash().multiGet(RedisKeys.attempts(subject), List.of("n", "last"));
        return count(values.get(0), values.get(1));
    }

    /** Every subject's count in one round trip (their keys may be on different masters of a cluster). */
    @Override
    public List<Count> get(List<String> subjects) {
        List<Object> replies = RedisBatch.run(redis, (r, sent) -> subjects.forEach(subject -> sent.add(
                r.hmget(RedisBytes.of(RedisKeys.attempts(subject)), N, LAST))));
        List<Count> counts = new ArrayList<>(subjects.size());
        for (Object reply : replies) {
            List<?> values = (List<?>) reply;
            counts.add(count(value(values.get(0)), value(values.get(1))));
        }
        return counts;
    }

    /** A field of an HMGET as Lettuce answers it: a {@code KeyValue}, empty when the field is not there. */
    private static Object value(Object field) {
        return field instanceof io.lettuce.core.KeyValue<?, ?> kv ? kv.getValueOrElse(null) : field;
    }

    private static Count count(Object attempts, Object last) {
        if (attempts == null || last == null) {
            return Count.NONE;
        }
        return new Count(RedisBytes.number(attempts), Instant.ofEpochMilli(RedisBytes.number(last)));
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
