package dev.cim.server.support;

import dev.cim.client.core.CimClient;
import dev.cim.client.core.CimClientBuilder;
import dev.cim.client.core.CimListener;
import dev.cim.client.core.SeenIds;
import dev.cim.server.CimServerApplication;
import dev.cim.server.CimServerProperties;
import dev.cim.server.net.CimServer;
import dev.cim.server.redis.embedded.EmbeddedRedisServer;
import dev.cim.testkit.Ports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A whole server in this JVM, over real TCP on loopback, with a real Redis: its own embedded one on
 * a free port and a fresh data directory, or one the test owns. Clients are clients of the client
 * library, closed with the server.
 */
public final class TestServer implements AutoCloseable {

    public static final String PASSWORD = "correct horse";

    private final ConfigurableApplicationContext context;
    private final List<CimClient> clients = new ArrayList<>();

    private TestServer(ConfigurableApplicationContext context) {
        this.context = context;
    }

    /** A server with its own embedded Redis; {@code args} are more {@code --name=value} settings. */
    public static TestServer start(String... args) {
        List<String> all = new ArrayList<>(List.of(
                "--cim.server.redis.embedded=true",
                "--spring.data.redis.port=" + Ports.free(),
                "--cim.server.data-dir=" + tempDir()));
        all.addAll(List.of(args));
        return run(all);
    }

    /**
     * A server with its own embedded Redis on {@code redisPort}, persisting to {@code dataDir}: start
     * it again on the same two to restart it.
     */
    public static TestServer embedded(int redisPort, java.nio.file.Path dataDir, String... args) {
        List<String> all = new ArrayList<>(List.of(
                "--cim.server.redis.embedded=true",
                "--spring.data.redis.port=" + redisPort,
                "--cim.server.data-dir=" + dataDir));
        all.addAll(List.of(args));
        return run(all);
    }

    /** A server on an embedded Redis the test started, with its password. */
    public static TestServer onRedis(EmbeddedRedisServer redis, String... args) {
        List<String> all = new ArrayList<>(List.of("--spring.data.redis.password=" + redis.password()));
        all.addAll(List.of(args));
        return onRedis(redis.port(), all.toArray(String[]::new));
    }

    /** A server on the Redis at {@code redisPort}; give its credentials in {@code args} if it needs any. */
    public static TestServer onRedis(int redisPort, String... args) {
        List<String> all = new ArrayList<>(List.of(
                "--cim.server.redis.embedded=false",
                "--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=" + redisPort));
        all.addAll(List.of(args));
        return run(all);
    }

    /** A server with its own embedded Redis whose clock is {@code clock}. */
    public static TestServer withClock(java.time.Clock clock, String... args) {
        List<String> all = new ArrayList<>(List.of(
                "--cim.server.redis.embedded=true",
                "--spring.data.redis.port=" + Ports.free(),
                "--cim.server.data-dir=" + tempDir()));
        all.addAll(List.of(args));
        return run(all, clock);
    }

    private static TestServer run(List<String> args) {
        return run(args, null);
    }

    private static TestServer run(List<String> args, java.time.Clock clock) {
        List<String> all = new ArrayList<>(List.of(
                "--cim.server.port=0",
                "--cim.server.accounts.bcrypt-strength=4")); // hashing cost is not under test
        // No management HTTP unless a test wants it; and limits meant for strangers on a network are
        // lifted (tests log in hundreds of users from loopback, and send in bursts), unless a test of
        // those limits sets them.
        // Redis' command timeout is generous: on two busy cores a first connection can take seconds.
        for (String setting : List.of("--cim.server.host=127.0.0.1", "--spring.main.web-application-type=none",
                "--cim.server.web.port=0",
                "--spring.data.redis.timeout=30s",
                "--cim.server.accounts.registrations-per-address=1000000",
                "--cim.server.limits.connections-per-address=1000000",
                "--cim.server.limits.unauthenticated-per-address=1000000",
                "--cim.server.limits.messages-per-second=1000000",
                "--cim.server.limits.message-burst=1000000")) {
            String name = setting.substring(0, setting.indexOf('=') + 1);
            if (args.stream().noneMatch(a -> a.startsWith(name))) {
                all.add(setting);
            }
        }
        all.addAll(args); // a repeated setting would be read as a list: each is given once
        // Command-line arguments, since they override application.properties (builder
        // "properties" are only defaults and would lose to it).
        SpringApplicationBuilder builder = new SpringApplicationBuilder(CimServerApplication.class);
        if (clock != null) {
            builder.initializers(context -> ((org.springframework.context.support.GenericApplicationContext) context)
                    .registerBean(java.time.Clock.class, () -> clock));
        }
        return new TestServer(builder.run(all.toArray(String[]::new)));
    }

    private static String tempDir() {
        try {
            return Files.createTempDirectory("cim-test-redis-").toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public ConfigurableApplicationContext context() {
        return context;
    }

    public <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    public int port() {
        return context.getBean(CimServer.class).port();
    }

    public String nodeId() {
        return context.getBean(CimServerProperties.class).nodeId();
    }

    public String address() {
        return "127.0.0.1:" + port();
    }

    public StringRedisTemplate redis() {
        return context.getBean(StringRedisTemplate.class);
    }

    /** A connected client of {@code user} (not yet logged in: call {@code connect()}). */
    public CimClient client(String user, CimListener listener) {
        return client(address(), user, listener);
    }

    /** A client of {@code user} for {@code addresses}, closed with this server. */
    public CimClient client(String addresses, String user, CimListener listener) {
        return client(builder(addresses, user, listener));
    }

    /** A builder for a client of {@code user} with this server's usual settings, to add more to. */
    public CimClientBuilder builder(String user, CimListener listener) {
        return builder(address(), user, listener);
    }

    private static CimClientBuilder builder(String addresses, String user, CimListener listener) {
        return CimClient.builder()
                .addresses(addresses)
                .user(user)
                .password(PASSWORD)
                .listener(listener)
                .seenIds(SeenIds.inMemory(10_000))
                .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(500));
    }

    /** The client {@code builder} builds, closed with this server. */
    public CimClient client(CimClientBuilder builder) {
        CimClient client = builder.build();
        synchronized (clients) {
            clients.add(client);
        }
        return client;
    }

    /** Closes the clients made here, then the server. */
    @Override
    public void close() {
        closeClients();
        context.close();
    }

    public void closeClients() {
        synchronized (clients) {
            clients.forEach(CimClient::close);
            clients.clear();
        }
    }
}
