package dev.cim.server.support;

import dev.cim.server.redis.embedded.EmbeddedRedisServer;
import dev.cim.testkit.Ports;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * A real Redis (the embedded one, with its password) for a test class of the stores, and the two
 * templates the server uses on it: string keys with byte values, and strings.
 *
 * <pre>
 * &#64;RegisterExtension
 * static final RedisFixture redis = new RedisFixture();
 * </pre>
 */
public final class RedisFixture implements BeforeAllCallback, AfterAllCallback {

    private Path dataDir;
    private EmbeddedRedisServer redis;
    private LettuceConnectionFactory connections;
    private RedisTemplate<String, byte[]> bytes;
    private StringRedisTemplate strings;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        dataDir = Files.createTempDirectory("cim-redis-test");
        redis = new EmbeddedRedisServer(Ports.free(), dataDir, "everysec");
        redis.start();
        RedisStandaloneConfiguration where = new RedisStandaloneConfiguration("127.0.0.1", redis.port());
        where.setPassword(redis.password());
        connections = new LettuceConnectionFactory(where);
        connections.afterPropertiesSet();
        connections.start();
        bytes = new RedisTemplate<>();
        bytes.setConnectionFactory(connections);
        bytes.setKeySerializer(RedisSerializer.string());
        bytes.setValueSerializer(RedisSerializer.byteArray());
        bytes.setHashKeySerializer(RedisSerializer.string());
        bytes.setHashValueSerializer(RedisSerializer.byteArray());
        bytes.afterPropertiesSet();
        strings = new StringRedisTemplate(connections);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (connections != null) {
            connections.destroy();
        }
        if (redis != null) {
            redis.close();
        }
        if (dataDir != null) {
            try (var files = Files.walk(dataDir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** String keys, byte values (and byte hash values): the server's store template. */
    public RedisTemplate<String, byte[]> bytes() {
        return bytes;
    }

    public StringRedisTemplate strings() {
        return strings;
    }

    public EmbeddedRedisServer server() {
        return redis;
    }
}
