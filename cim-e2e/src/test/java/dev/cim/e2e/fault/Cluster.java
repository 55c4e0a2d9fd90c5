package dev.cim.e2e.fault;

import dev.cim.e2e.JavaProcess;
import dev.cim.e2e.RedisProcess;
import dev.cim.testkit.Ports;
import dev.cim.testkit.RedisCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * The processes of one fault scenario: one or more server jars, their Redis (a process of the
 * test's own, or the embedded one of a single server, persisting to its data directory), and
 * {@link FaultClient}s. Each can be killed (SIGKILL), frozen (SIGSTOP) and started again.
 */
final class Cluster implements AutoCloseable {

    static final Duration START = Duration.ofSeconds(90);

    private final Path projectDir = Path.of(System.getProperty("cim.project.dir", "..")).toAbsolutePath().normalize();
    private final Path serverJar = projectDir.resolve("cim-server/target/cim-server.jar");
    private final Path work;
    private final boolean embedded;
    private final String fsync;
    private final int redisPort = Ports.free();
    private final String redisPassword = RedisProcess.newPassword();
    private final int[] ports;
    private final JavaProcess[] servers;
    private final List<String> extraArgs;
    private final List<JavaProcess> clients = new ArrayList<>();
    /** Server processes that were killed and replaced by a restart, kept for their output. */
    private final List<JavaProcess> replaced = new ArrayList<>();
    private RedisProcess redis;
    /** Set for nodes on a Redis Cluster ({@link #onRedisCluster}), started by {@link #start}. */
    private final boolean onRedisCluster;
    private RedisCluster redisCluster;

    /**
     * @param embedded true for one server with its own embedded Redis (the quick start's setup);
     *                 false for a Redis process of the test's own, shared by {@code nodes} servers
     */
    Cluster(boolean embedded, int nodes, String fsync, String... extraArgs) throws IOException {
        this(embedded, false, nodes, fsync, extraArgs);
    }

    /** {@code nodes} servers on a Redis Cluster of six processes of the test's own (bin/redis-cluster). */
    static Cluster onRedisCluster(int nodes, String... extraArgs) throws IOException {
        return new Cluster(false, true, nodes, "everysec", extraArgs);
    }

    private Cluster(boolean embedded, boolean onRedisCluster, int nodes, String fsync, String... extraArgs)
            throws IOException {
        this.onRedisCluster = onRedisCluster;
        if (embedded && nodes != 1) {
            throw new IllegalArgumentException("an embedded Redis serves one node (expected: nodes = 1)");
        }
        this.work = Files.createTempDirectory("cim-fault-");
        this.embedded = embedded;
        this.fsync = fsync;
        this.ports = new int[nodes];
        for (int i = 0; i < nodes; i++) {
            ports[i] = Ports.free();
        }
        this.servers = new JavaProcess[nodes];
        this.extraArgs = List.of(extraArgs);
    }

    void start() throws IOException, InterruptedException {
        if (!embedded) {
            startRedis();
        }
        for (int i = 0; i < servers.length; i++) {
            startServer(i);
        }
    }

    void startRedis() throws IOException, InterruptedException {
        if (onRedisCluster) {
            redisCluster = RedisCluster.start(projectDir, work.resolve("redis-cluster"), Ports.freeRun(6, 10_000));
        } else {
            redis = RedisProcess.start(redisPort, work.resolve("redis"), fsync, redisPassword);
        }
    }

    /** The Redis Cluster under the nodes, for {@link #onRedisCluster} ones. */
    RedisCluster redisCluster() {
        return redisCluster;
    }

    void killRedis() throws InterruptedException {
        redis.kill();
    }

    void startServer(int node) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(
                "--cim.server.port=" + ports[node],
                "--cim.server.node-id=node-" + node,
                "--cim.server.accounts.bcrypt-strength=4",
                "--cim.server.idle-timeout=3s",
                "--cim.server.presence.ttl=4s",
                "--cim.server.presence.refresh-interval=1s",
                "--cim.server.limits.relay-timeout=3s",
                // Faults, not limits, are under test: a sender back from a cut resends in a burst.
                "--cim.server.limits.messages-per-second=100000",
                "--cim.server.limits.message-burst=100000",
                "--cim.server.accounts.registrations-per-address=1000",
                "--spring.main.web-application-type=none",
                "--cim.server.web.port=0",
                "--spring.data.redis.port=" + redisPort,
                "--spring.data.redis.timeout=2s"));
        if (embedded) {
            args.add("--cim.server.redis.embedded=true");
            args.add("--cim.server.redis.fsync=" + fsync);
            args.add("--cim.server.data-dir=" + work.resolve("redis"));
        } else {
            args.add("--cim.server.redis.embedded=false");
        }
        if (onRedisCluster) {
            args.add("--spring.data.redis.cluster.nodes=" + redisCluster.nodes());
        }
        // The test's own settings replace the defaults above (Spring would join a setting given twice).
        for (String extra : extraArgs) {
            String key = extra.substring(0, extra.indexOf('=') + 1);
            args.removeIf(arg -> arg.startsWith(key));
        }
        args.addAll(extraArgs);
        // Redis' password (of the test's own Redis) through the environment, as in production.
        if (servers[node] != null) {
            replaced.add(servers[node]);
        }
        servers[node] = JavaProcess.start("server-" + node, serverJar, args, embedded ? java.util.Map.of()
                : onRedisCluster ? redisCluster.serverEnvironment() : RedisProcess.serverEnvironment(redisPassword));
        servers[node].await("listening on", START);
    }

    /** The server process of {@code node}, for its output. */
    JavaProcess server(int node) {
        return servers[node];
    }

    void killServer(int node) throws InterruptedException {
        servers[node].kill();
    }

    /** SIGSTOP: the server freezes, its sockets stay open. */
    void freezeServer(int node) throws IOException, InterruptedException {
        servers[node].freeze();
    }

    /** SIGCONT. */
    void thawServer(int node) throws IOException, InterruptedException {
        servers[node].thaw();
    }

    int port(int node) {
        return ports[node];
    }

    /** Every node, {@code host:port,...}. */
    String addresses() {
        StringJoiner all = new StringJoiner(",");
        for (int port : ports) {
            all.add("127.0.0.1:" + port);
        }
        return all.toString();
    }

    /** The lines of every client's output that start with {@code prefix}. */
    List<String> clientLines(String prefix) {
        List<String> lines = new ArrayList<>();
        for (JavaProcess client : clients) {
            client.transcript().lines().filter(line -> line.startsWith(prefix)).forEach(lines::add);
        }
        return lines;
    }

    /** Writes the output of every process of the cluster to {@code cim-e2e/target/fault-outputs/<fault>/}. */
    void keepOutputs(String fault) throws IOException {
        Path dir = Path.of(System.getProperty("cim.project.dir", "..")).toAbsolutePath().normalize()
                .resolve("cim-e2e/target/fault-outputs").resolve(fileName(fault));
        Files.createDirectories(dir);
        List<JavaProcess> all = new ArrayList<>(clients);
        all.addAll(replaced);
        for (JavaProcess server : servers) {
            if (server != null) {
                all.add(server);
            }
        }
        for (int i = 0; i < all.size(); i++) {
            JavaProcess process = all.get(i);
            Files.writeString(dir.resolve(i + "-" + fileName(process.name()) + ".log"), process.transcript());
        }
        System.out.println("The outputs of the processes of '" + fault + "' are in " + dir);
    }

    private static String fileName(String text) {
        return text.replaceAll("[^A-Za-z0-9]+", "-");
    }

    Path stateDir() {
        return work.resolve("clients");
    }

    /** A sender of {@code count} messages numbered from {@code from}, to {@code recipient}. */
    JavaProcess sender(String user, String addresses, String recipient, long from, long count, double perSecond)
            throws IOException {
        return client(List.of("sender", user, addresses, stateDir().toString(), recipient, Long.toString(from),
                Long.toString(count), Double.toString(perSecond)), user);
    }

    /** A client that schedules {@code count} messages to {@code recipient}, due evenly over [first, last]. */
    JavaProcess scheduler(String user, String addresses, String recipient, int count, java.time.Instant first,
            java.time.Instant last) throws IOException {
        return client(List.of("scheduler", user, addresses, stateDir().toString(), recipient, Integer.toString(count),
                Long.toString(first.toEpochMilli()), Long.toString(last.toEpochMilli())), user);
    }

    /** A client that schedules one message to {@code recipient} recurring by {@code rule}, {@code times} times. */
    JavaProcess series(String user, String addresses, String recipient, String rule, int times) throws IOException {
        return client(List.of("series", user, addresses, stateDir().toString(), recipient, rule,
                Integer.toString(times)), user);
    }

    /** A client that schedules {@code count} messages to {@code recipient} for when they next log in. */
    JavaProcess onliner(String user, String addresses, String recipient, int count) throws IOException {
        return client(List.of("onliner", user, addresses, stateDir().toString(), recipient, Integer.toString(count)),
                user);
    }

    /** {@code count} members of a group in one process: users {@code prefix}1 to {@code prefix}count. */
    JavaProcess members(String prefix, int count, String addresses) throws IOException {
        return client(List.of("members", prefix, Integer.toString(count), addresses, stateDir().toString()), prefix);
    }

    JavaProcess receiver(String user, String addresses) throws IOException {
        return client(List.of("receiver", user, addresses, stateDir().toString()), user);
    }

    private JavaProcess client(List<String> args, String user) throws IOException {
        JavaProcess client = JavaProcess.startMain(args.get(0) + "-" + user, FaultClient.class, args);
        clients.add(client);
        return client;
    }

    @Override
    public void close() throws InterruptedException {
        for (JavaProcess client : clients) {
            client.close();
        }
        for (JavaProcess server : servers) {
            if (server != null) {
                if (server.isAlive()) {
                    try {
                        thawServer(List.of(servers).indexOf(server));
                    } catch (IOException | RuntimeException ignored) {
                        // not frozen, or gone
                    }
                }
                server.close();
            }
        }
        if (redis != null) {
            redis.close();
        }
        if (redisCluster != null) {
            try {
                redisCluster.close();
            } catch (IOException | IllegalStateException e) {
                System.err.println("Could not stop the Redis Cluster: " + e);
            }
        }
    }

}
