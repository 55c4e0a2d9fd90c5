package dev.cim.server.redis;

import dev.cim.server.store.AccountStore;
import java.util.Optional;
import org.springframework.data.redis.core.StringRedisTemplate;

/** Accounts as {@code cim:{u:<user>}:account} hashes holding the password hash (see {@link RedisKeys}). */
public final class RedisAccountStore implements AccountStore {

    private static final String HASH = "hash";

    private final StringRedisTemplate redis;

    public RedisAccountStore(StringRedisTemplate redis) {
        this.redis = redis;
    }

    @Override
    public Optional<String> passwordHash(String user) {
        Object hash = redis.opsForHash().get(RedisKeys.account(user), HASH);
        return Optional.ofNullable((String) hash);
    }

    @Override
    public boolean createIfAbsent(String user, String passwordHash) {
        return Boolean.TRUE.equals(redis.opsForHash().putIfAbsent(RedisKeys.account(user), HASH, passwordHash));
    }

    @Override
    public boolean exists(String user) {
        return Boolean.TRUE.equals(redis.hasKey(RedisKeys.account(user)));
    }
}
