package dev.cim.server.redis.embedded;

import dev.cim.server.CimServerProperties;
import org.springframework.boot.autoconfigure.AbstractDependsOnBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * With {@code cim.server.redis.embedded=true} (the default), runs an {@link EmbeddedRedisServer} on
 * {@code spring.data.redis.port}, persisting to {@code cim.server.data-dir}, and makes every
 * {@link RedisConnectionFactory} depend on it, so Redis is up (its data loaded) before the first
 * connection and stopped only after the factory is closed.
 *
 * <p>Spring Boot's Redis connection is told where the embedded Redis is, and its password, by a
 * {@link DataRedisConnectionDetails} bean: Boot's auto-configuration uses such a bean instead of the
 * one it would make from {@code spring.data.redis.*}, and builds the one Lettuce connection factory
 * from it, which every Redis user of the server (templates, the pub/sub listener container, the
 * health check) shares. So in embedded mode {@code spring.data.redis.host}, {@code url},
 * {@code username} and {@code password} do not apply; the port and database do.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "cim.server.redis.embedded", havingValue = "true", matchIfMissing = true)
class EmbeddedRedisConfiguration {

    static final String BEAN_NAME = "cimEmbeddedRedisServer";

    @Bean(name = BEAN_NAME, initMethod = "start", destroyMethod = "close")
    EmbeddedRedisServer cimEmbeddedRedisServer(DataRedisProperties redis, CimServerProperties properties) {
        CimServerProperties.Redis settings = properties.redis();
        return new EmbeddedRedisServer(redis.getPort(), properties.redisDataDir(redis.getPort()),
                new EmbeddedRedisServer.Options(settings.fsync(), settings.executable(), settings.maxmemory().toBytes()));
    }

    /** Taking the started server: its password is known once it has started. */
    @Bean
    DataRedisConnectionDetails cimEmbeddedRedisConnectionDetails(EmbeddedRedisServer cimEmbeddedRedisServer,
            DataRedisProperties redis) {
        return new EmbeddedConnectionDetails(cimEmbeddedRedisServer, redis.getDatabase());
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

    /** 127.0.0.1, the embedded server's port, and its password, for the default user. */
    private record EmbeddedConnectionDetails(EmbeddedRedisServer server, int database)
            implements DataRedisConnectionDetails {

        @Override
        public String getPassword() {
            return server.password();
        }

        @Override
        public Standalone getStandalone() {
            return Standalone.of("127.0.0.1", server.port(), database);
        }
    }
}
