package dev.cim.server.redis.embedded;

import dev.cim.server.AccountTool;
import dev.cim.server.CimServerProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.springframework.boot.autoconfigure.AbstractDependsOnBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * With {@code cim.server.redis.embedded=true} (the default), the server runs an
 * {@link EmbeddedRedisServer} on {@code spring.data.redis.port}, persisting to
 * {@code cim.server.data-dir}, and makes every {@link RedisConnectionFactory} depend on it, so Redis
 * is up (its data loaded) before the first connection and stopped only after the factory is closed.
 * The {@link AccountTool} runs none: it reaches the one its server runs, with the password kept in
 * the same data directory.
 *
 * <p>Spring Boot's Redis connection is told where the embedded Redis is, and its password, by a
 * {@link DataRedisConnectionDetails} bean: Boot's auto-configuration uses such a bean instead of the
 * one it would make from {@code spring.data.redis.*}, and builds the one Lettuce connection factory
 * from it, which every Redis user of the server (templates, the pub/sub listener container, the
 * health check) shares. So in embedded mode {@code spring.data.redis.host}, {@code url},
 * {@code username} and {@code password} do not apply; the port and database do.
 *
 * <p>Two configurations, one per profile, each with the embedded condition of its own: component
 * scanning finds nested configuration classes by themselves, so an outer condition would not hold.
 */
final class EmbeddedRedisConfiguration {

    static final String BEAN_NAME = "cimEmbeddedRedisServer";

    private EmbeddedRedisConfiguration() {
    }

    /** The serving server: starts the embedded Redis. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "cim.server.redis.embedded", havingValue = "true", matchIfMissing = true)
    @Profile("!" + AccountTool.PROFILE)
    static class Run {

        @Bean(name = BEAN_NAME, initMethod = "start", destroyMethod = "close")
        EmbeddedRedisServer cimEmbeddedRedisServer(DataRedisProperties redis, CimServerProperties properties) {
            CimServerProperties.Redis settings = properties.redis();
            return new EmbeddedRedisServer(redis.getPort(), properties.redisDataDir(redis.getPort()),
                    new EmbeddedRedisServer.Options(settings.fsync(), settings.executable(),
                            settings.maxmemory().toBytes()));
        }

        /** Taking the started server: its password is known once it has started. */
        @Bean
        DataRedisConnectionDetails cimEmbeddedRedisConnectionDetails(EmbeddedRedisServer cimEmbeddedRedisServer,
                DataRedisProperties redis) {
            return new EmbeddedConnectionDetails(cimEmbeddedRedisServer.port(), cimEmbeddedRedisServer.password(),
                    redis.getDatabase());
        }

        /** Static: a bean factory post-processor must exist before the other beans are defined. */
        @Bean
        static AbstractDependsOnBeanFactoryPostProcessor redisConnectionFactoryDependsOnEmbeddedRedis() {
            return new RedisFactoryDependsOnEmbeddedRedis();
        }
    }

    /** The account tool: reaches the embedded Redis its server runs on the same data directory. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "cim.server.redis.embedded", havingValue = "true", matchIfMissing = true)
    @Profile(AccountTool.PROFILE)
    static class Reach {

        @Bean
        DataRedisConnectionDetails cimEmbeddedRedisConnectionDetails(DataRedisProperties redis,
                CimServerProperties properties) {
            Path file = properties.redisDataDir(redis.getPort()).resolve(EmbeddedRedisServer.PASSWORD_FILE);
            String password;
            try {
                password = Files.readString(file, StandardCharsets.UTF_8).strip();
            } catch (NoSuchFileException e) {
                // Said in full here, and the tool prints only the deepest message: no cause.
                throw new IllegalStateException("no embedded Redis password in " + file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
            return new EmbeddedConnectionDetails(redis.getPort(), password, redis.getDatabase());
        }
    }

    private static final class RedisFactoryDependsOnEmbeddedRedis extends AbstractDependsOnBeanFactoryPostProcessor {
        RedisFactoryDependsOnEmbeddedRedis() {
            super(RedisConnectionFactory.class, BEAN_NAME);
        }
    }

    /** 127.0.0.1, the embedded server's port, and its password, for the default user. */
    private record EmbeddedConnectionDetails(int port, String password, int database)
            implements DataRedisConnectionDetails {

        @Override
        public String getPassword() {
            return password;
        }

        @Override
        public Standalone getStandalone() {
            return Standalone.of("127.0.0.1", port, database);
        }
    }
}
