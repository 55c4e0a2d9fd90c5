package dev.cim.server.account;

import dev.cim.server.redis.RedisKeys;
import java.util.Optional;
import org.springframework.data.redis.core.StringRedisTemplate;

/** Accounts as {@code cim:account:<user>} strings holding the password hash (see {@link RedisKeys}). */
public final class RedisAccountStore implements AccountStore {

    private final StringRedisTemplate redis;

    public RedisAccountStore(StringRedisTemplate redis) {
        this.redis = redis;
    }

    @Override
    public Optional<String> passwordHash(String user) {
        return Optional.ofNullable(redis.opsForValue().get(RedisKeys.account(user)));
    }

    @Override
    public boolean createIfAbsent(String user, String passwordHash) {
        return Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(RedisKeys.account(user), passwordHash));
    }

    @Override
    public boolean exists(String user) {
        return Boolean.TRUE.equals(redis.hasKey(RedisKeys.account(user)));
    }
}
