package dev.cim.server.redis;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the server gets its Redis, {@code cim.redis.*}. Where Redis is comes from Spring Boot's
 * {@code spring.data.redis.host} and {@code spring.data.redis.port}.
 *
 * @param embedded true to start a redis-server process inside the server on
 *                 {@code spring.data.redis.port}, bound to 127.0.0.1, and stop it on shutdown (its
 *                 data is lost then); false to connect to the Redis already running at
 *                 {@code spring.data.redis.host}:{@code port}
 */
@ConfigurationProperties("cim.redis")
public record CimRedisProperties(@DefaultValue("true") boolean embedded) {
}
