package dev.cim.server.redis;

import dev.cim.server.store.AccountStore;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Accounts in Redis (see {@link RedisKeys}): {@code cim:{u:<user>}:account}, a hash holding the
 * password hash; {@code cim:{n:<skeleton>}:owner}, the name that claimed a look-alike skeleton;
 * {@code cim:{u:<user>}:tokens}, a hash of session-token hashes to their expiry.
 *
 * <p>Creating an account is two commands on two slots (valid on a Redis Cluster): the skeleton is
 * claimed first ({@code SET NX}), then the account ({@code HSETNX}). A crash between them leaves a
 * claim whose owner has no account yet; the owner's next first login finds the claim its own and
 * goes on, and no other name can take it meanwhile.
 */
public final class RedisAccountStore implements AccountStore {

    private static final String HASH = "hash";
    private static final String ZONE = "zone";

    /** KEYS[1] tokens; ARGV: token hash, expiry ms, most kept. Keeps the tokens that expire last. */
    private static final LuaScript ADD_TOKEN = new LuaScript("add-token", """
            redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
            local max = tonumber(ARGV[3])
            if redis.call('HLEN', KEYS[1]) > max then
              local all = redis.call('HGETALL', KEYS[1])
              local expiries = {}
              for i = 1, #all, 2 do expiries[#expiries + 1] = {all[i], tonumber(all[i + 1])} end
              table.sort(expiries, function(a, b) return a[2] < b[2] end)
              for i = 1, #expiries - max do redis.call('HDEL', KEYS[1], expiries[i][1]) end
            end
            local latest = 0
            for _, v in ipairs(redis.call('HVALS', KEYS[1])) do latest = math.max(latest, tonumber(v)) end
            redis.call('PEXPIREAT', KEYS[1], latest)
            return {1}
            """);

    /** KEYS[1] tokens; ARGV: token hash, now ms, new expiry ms. {1} when live (and renewed), else {0}. */
    private static final LuaScript USE_TOKEN = new LuaScript("use-token", """
            local expiry = redis.call('HGET', KEYS[1], ARGV[1])
            if not expiry then return {0} end
            if tonumber(expiry) <= tonumber(ARGV[2]) then
              redis.call('HDEL', KEYS[1], ARGV[1])
              return {0}
            end
            redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
            if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) - tonumber(ARGV[2]) then
              redis.call('PEXPIREAT', KEYS[1], ARGV[3])
            end
            return {1}
            """);

    private final StringRedisTemplate redis;
    private final RedisTemplate<String, byte[]> bytes;

    public RedisAccountStore(StringRedisTemplate redis, RedisTemplate<String, byte[]> bytes) {
        this.redis = redis;
        this.bytes = bytes;
    }

    @Override
    public Optional<String> passwordHash(String user) {
        Object hash = redis.opsForHash().get(RedisKeys.account(user), HASH);
        return Optional.ofNullable((String) hash);
    }

    @Override
    public boolean replacePasswordHash(String user, String passwordHash) {
        // Accounts are never deleted, so an account seen to exist still exists at the write.
        if (!Boolean.TRUE.equals(redis.opsForHash().hasKey(RedisKeys.account(user), HASH))) {
            return false;
        }
        redis.opsForHash().put(RedisKeys.account(user), HASH, passwordHash);
        return true;
    }

    @Override
    public Creation create(String user, String skeleton, String passwordHash) {
        String claim = RedisKeys.nameOwner(skeleton);
        if (!Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(claim, user))
                && !user.equals(redis.opsForValue().get(claim))) {
            return Creation.LOOKS_TAKEN;
        }
        return Boolean.TRUE.equals(redis.opsForHash().putIfAbsent(RedisKeys.account(user), HASH, passwordHash))
                ? Creation.CREATED : Creation.EXISTS;
    }

    @Override
    public Optional<String> ownerOf(String skeleton) {
        return Optional.ofNullable(redis.opsForValue().get(RedisKeys.nameOwner(skeleton)));
    }

    @Override
    public boolean exists(String user) {
        return Boolean.TRUE.equals(redis.hasKey(RedisKeys.account(user)));
    }

    @Override
    public Set<String> existing(Collection<String> users) {
        List<String> asked = List.copyOf(users);
        // One EXISTS per name, pipelined: each key on its own slot, so valid on a cluster too.
        List<Object> answers = RedisBatch.run(redis, (r, sent) -> {
            for (String user : asked) {
                sent.add(r.exists(RedisBytes.of(RedisKeys.account(user))));
            }
        });
        Set<String> found = new HashSet<>();
        for (int i = 0; i < asked.size(); i++) {
            if (Boolean.TRUE.equals(answers.get(i)) || Long.valueOf(1).equals(answers.get(i))) {
                found.add(asked.get(i));
            }
        }
        return found;
    }

    @Override
    public void addToken(String user, String tokenHash, Instant expiresAt, int maxTokens) {
        ADD_TOKEN.run(bytes, List.of(RedisBytes.of(RedisKeys.tokens(user))),
                List.of(RedisBytes.of(tokenHash), RedisBytes.of(expiresAt.toEpochMilli()), RedisBytes.of(maxTokens)));
    }

    @Override
    public boolean useToken(String user, String tokenHash, Instant now, Instant newExpiry) {
        Object reply = USE_TOKEN.run(bytes, List.of(RedisBytes.of(RedisKeys.tokens(user))),
                List.of(RedisBytes.of(tokenHash), RedisBytes.of(now.toEpochMilli()),
                        RedisBytes.of(newExpiry.toEpochMilli())));
        return RedisBytes.number(((List<?>) reply).get(0)) == 1;
    }

    @Override
    public long revokeTokens(String user) {
        String key = RedisKeys.tokens(user);
        Long count = redis.opsForHash().size(key);
        redis.delete(key);
        return count == null ? 0 : count;
    }

    @Override
    public boolean revokeToken(String user, String tokenHash) {
        Long removed = redis.opsForHash().delete(RedisKeys.tokens(user), tokenHash);
        return removed != null && removed > 0;
    }

    @Override
    public Map<String, String> zones(Collection<String> users) {
        List<String> asked = List.copyOf(users);
        byte[] field = RedisBytes.of(ZONE);
        // One HGET per name, pipelined: each account on its own slot, so valid on a cluster too.
        List<Object> answers = RedisBatch.run(redis, (r, sent) -> {
            for (String user : asked) {
                sent.add(r.hget(RedisBytes.of(RedisKeys.account(user)), field));
            }
        });
        Map<String, String> zones = new HashMap<>();
        for (int i = 0; i < asked.size(); i++) {
            Object zone = answers.get(i);
            if (zone instanceof byte[] bytes) {
                zones.put(asked.get(i), new String(bytes, StandardCharsets.UTF_8));
            } else if (zone instanceof String text) {
                zones.put(asked.get(i), text);
            }
        }
        return zones;
    }

    @Override
    public void setZone(String user, String zone) {
        redis.opsForHash().put(RedisKeys.account(user), ZONE, zone);
    }
}
