package dev.cim.server.redis;

import org.springframework.boot.autoconfigure.AbstractDependsOnBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * With {@code cim.redis.embedded=true} (the default), runs an {@link EmbeddedRedisServer} on
 * {@code spring.data.redis.port} and makes every {@link RedisConnectionFactory} depend on it, so
 * Redis is up before the first connection and stopped only after the factory is closed.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "cim.redis.embedded", havingValue = "true", matchIfMissing = true)
class EmbeddedRedisConfiguration {

    static final String BEAN_NAME = "cimEmbeddedRedisServer";

    @Bean(name = BEAN_NAME, initMethod = "start", destroyMethod = "close")
    EmbeddedRedisServer cimEmbeddedRedisServer(DataRedisProperties redis) {
        return new EmbeddedRedisServer(redis.getPort());
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
