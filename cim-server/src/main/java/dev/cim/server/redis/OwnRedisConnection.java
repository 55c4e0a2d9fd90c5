package dev.cim.server.redis;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A Redis connection of its own, beside the one every store shares, with the same settings (server
 * or cluster or Sentinel, password, TLS, timeouts). Lettuce pipelines every command of a factory
 * over one connection, so a command waits behind all those sent before it; the node's heartbeat
 * cannot: when a burst of traffic (thousands of logins at once) keeps the shared connection seconds
 * behind, a heartbeat that waits there lets its liveness key expire, and the other nodes take a
 * live node for dead.
 *
 * <p>When the shared factory is not Lettuce's (a test's), the template uses it as is.
 */
public final class OwnRedisConnection implements AutoCloseable {

    private final LettuceConnectionFactory own;
    private final StringRedisTemplate template;

    public OwnRedisConnection(RedisConnectionFactory shared, RedisRoundTrips roundTrips) {
        this.own = shared instanceof LettuceConnectionFactory lettuce ? copyOf(lettuce) : null;
        this.template = new RedisFull.StringTemplate(own != null ? own : shared, roundTrips);
        template.afterPropertiesSet();
    }

    private static LettuceConnectionFactory copyOf(LettuceConnectionFactory shared) {
        LettuceConnectionFactory copy;
        if (shared.isClusterAware()) {
            copy = new LettuceConnectionFactory(shared.getClusterConfiguration(), shared.getClientConfiguration());
        } else if (shared.isRedisSentinelAware()) {
            copy = new LettuceConnectionFactory(shared.getSentinelConfiguration(), shared.getClientConfiguration());
        } else {
            copy = new LettuceConnectionFactory(shared.getStandaloneConfiguration(), shared.getClientConfiguration());
        }
        copy.afterPropertiesSet();
        copy.start();
        return copy;
    }

    /** String keys and values over this connection. */
    public StringRedisTemplate template() {
        return template;
    }

    @Override
    public void close() {
        if (own != null) {
            own.destroy();
        }
    }
}
