package dev.cim.server.support;

import dev.cim.server.redis.embedded.EmbeddedRedisServer;
import dev.cim.testkit.Ports;
import dev.cim.testkit.RedisCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
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
 *
 * {@link #standaloneOrCluster()} makes one that is a real Redis Cluster instead (three masters, three
 * replicas, from the repository's {@code bin/redis-cluster}) when the system property
 * {@value #MODE_PROPERTY} is {@code cluster}: the build runs the stores' tests once more that way,
 * so that every script and batch runs with the keys the server gives it on a cluster.
 */
public final class RedisFixture implements BeforeAllCallback, AfterAllCallback {

    /** {@code cluster} to run the tests of {@link #standaloneOrCluster()} fixtures on a Redis Cluster. */
    public static final String MODE_PROPERTY = "cim.test.redis";

    private final boolean cluster;
    private Path dataDir;
    private EmbeddedRedisServer redis;
    private RedisCluster redisCluster;
    private LettuceConnectionFactory connections;
    private RedisTemplate<String, byte[]> bytes;
    private StringRedisTemplate strings;

    /** An embedded Redis. */
    public RedisFixture() {
        this(false);
    }

    private RedisFixture(boolean cluster) {
        this.cluster = cluster;
    }

    /** An embedded Redis, or a Redis Cluster when {@value #MODE_PROPERTY} is {@code cluster}. */
    public static RedisFixture standaloneOrCluster() {
        return new RedisFixture("cluster".equals(System.getProperty(MODE_PROPERTY)));
    }

    /** True on a Redis Cluster. */
    public boolean isCluster() {
        return cluster;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        dataDir = Files.createTempDirectory("cim-redis-test");
        if (cluster) {
            try {
                redisCluster = RedisCluster.start(projectDir(), dataDir, Ports.freeRun(6, 10_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            RedisClusterConfiguration nodes = new RedisClusterConfiguration(List.of(redisCluster.nodes().split(",")));
            nodes.setPassword(redisCluster.password());
            connections = new LettuceConnectionFactory(nodes);
        } else {
            redis = new EmbeddedRedisServer(Ports.free(), dataDir, "everysec");
            redis.start();
            RedisStandaloneConfiguration where = new RedisStandaloneConfiguration("127.0.0.1", redis.port());
            where.setPassword(redis.password());
            connections = new LettuceConnectionFactory(where);
        }
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
        if (redisCluster != null) {
            try {
                redisCluster.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
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

    /** The embedded Redis; not on a cluster. */
    public EmbeddedRedisServer server() {
        if (redis == null) {
            throw new IllegalStateException("no embedded Redis: this fixture runs a Redis Cluster");
        }
        return redis;
    }

    /** The repository's root (where {@code bin/redis-cluster} is), from the module the tests run in. */
    private static Path projectDir() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isExecutable(dir.resolve("bin/redis-cluster"))) {
                return dir;
            }
        }
        throw new IllegalStateException("bin/redis-cluster not found above " + Path.of("").toAbsolutePath());
    }
}
