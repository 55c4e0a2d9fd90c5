package dev.cim.server.redis.embedded;

import dev.cim.server.CimServerProperties;
import org.springframework.boot.autoconfigure.AbstractDependsOnBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * With {@code cim.server.redis.embedded=true} (the default), runs an {@link EmbeddedRedisServer} on
 * {@code spring.data.redis.port}, persisting to {@code cim.server.data-dir}, and makes every
 * {@link RedisConnectionFactory} depend on it, so Redis is up (its data loaded) before the first
 * connection and stopped only after the factory is closed.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "cim.server.redis.embedded", havingValue = "true", matchIfMissing = true)
class EmbeddedRedisConfiguration {

    static final String BEAN_NAME = "cimEmbeddedRedisServer";

    @Bean(name = BEAN_NAME, initMethod = "start", destroyMethod = "close")
    EmbeddedRedisServer cimEmbeddedRedisServer(DataRedisProperties redis, CimServerProperties properties) {
        return new EmbeddedRedisServer(redis.getPort(), properties.redisDataDir(redis.getPort()),
                properties.redis().fsync());
    }

    /** Static: a bean factory post-processor must exist before the other beans are defined. */
    @Bean
    static AbstractDependsOnBeanFactoryPostProcessor redisConnectionFactoryDependsOnEmbeddedRedis() {
        return new RedisFactoryDependsOnEmbeddedRedis();
    }

    private static final class RedisFactoryDependsOnEmbeddedRedis extends AbstractDependsOnBeanFactoryPostProcessor {
        RedisFactoryDependsOnEmbeddedRedis() {
            super(RedisConnectionFactory.class, BEAN_NAME);
        }
    }
}
