package dev.cim.e2e;

import static org.assertj.core.api.Assertions.fail;

import dev.cim.testkit.Ports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The system under test: a Redis process (persisting to an append-only file), the server jar and any
 * number of client jars, each a process of its own, talking over loopback TCP on free ports. A test
 * class shares one by registering it: {@code @RegisterExtension static final CimSystem cim = new CimSystem();}.
 * Passwords reach the clients, and Redis' password the server, through the environment, as the
 * README recommends.
 */
final class CimSystem implements AutoCloseable, BeforeAllCallback, AfterAllCallback {

    static final Duration START = Duration.ofSeconds(60);

    private final Path projectDir = Path.of(System.getProperty("cim.project.dir", "..")).toAbsolutePath().normalize();
    private final Path serverJar = projectDir.resolve("cim-server/target/cim-server.jar");
    private final Path clientJar = projectDir.resolve("cim-client/target/cim-client.jar");
    private final Path work = tempDir();
    private final String fsync;
    private final int port = Ports.free();
    private final int redisPort = Ports.free();
    private final int managementPort = Ports.free();
    private final int webPort = Ports.free();
    private final String redisPassword = RedisProcess.newPassword();
    private final List<JavaProcess> clients = new ArrayList<>();
    private final List<String> serverArgs = new ArrayList<>();
    private RedisProcess redis;
    private JavaProcess server;

    CimSystem() {
        this("everysec");
    }

    /** A system whose Redis writes its file to disk every second ({@code everysec}) or at every write ({@code always}). */
    CimSystem(String fsync) {
        this.fsync = fsync;
    }

    /** More settings for the server, before it starts. */
    CimSystem withServerArgs(String... args) {
        serverArgs.addAll(List.of(args));
        return this;
    }

    /** Starts Redis and the server, and waits until the server listens. */
    void start() throws IOException, InterruptedException {
        startRedis();
        startServer();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        close();
    }

    /** Starts Redis (again) on its port and data directory. */
    void startRedis() throws IOException, InterruptedException {
        redis = RedisProcess.start(redisPort, work.resolve("redis"), fsync, redisPassword);
    }

    RedisProcess redis() {
        return redis;
    }

    /** Starts the server and waits until it listens. */
    void startServer() throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(
                "--cim.server.port=" + port,
                "--cim.server.node-id=e2e",
                "--cim.server.accounts.bcrypt-strength=4", // hashing cost is not under test here
                // Every client of a test comes from loopback: one address making many accounts.
                "--cim.server.accounts.registrations-per-address=1000",
                "--cim.server.redis.embedded=false",
                "--spring.data.redis.port=" + redisPort,
                "--management.server.port=" + managementPort,
                "--cim.server.web.port=" + webPort));
        args.addAll(serverArgs);
        // Redis' password through the environment, as in production: not on the command line.
        server = JavaProcess.start("cim-server", serverJar, args, RedisProcess.serverEnvironment(redisPassword));
        // The chat port opens before the rest of the start-up (Redis subscriptions, the management
        // port) is done: wait for its end, so that a server that fails after listening fails here,
        // with its output, and not later as clients that cannot connect.
        JavaProcess.Line end = server.await(line -> line.contains("Started CimServerApplication")
                || line.contains("APPLICATION FAILED TO START"), START, "the end of its start-up");
        if (!end.text().contains("Started")) {
            fail("cim-server did not start; its output:\n" + server.transcript());
        }
    }

    /** Ends the server as a crash would. */
    void killServer() throws InterruptedException {
        server.kill();
    }

    /** The server's web port: the page, and its WebSocket. */
    int webPort() {
        return webPort;
    }

    /** The server's management HTTP port (metrics, health). */
    int managementPort() {
        return managementPort;
    }

    JavaProcess server() {
        return server;
    }

    /** The port the server listens on. */
    int port() {
        return port;
    }

    /** The server jar the system runs. */
    Path serverJar() {
        return serverJar;
    }

    /** Starts a client for {@code user} (password "pw-" + user) without waiting for its login. */
    JavaProcess startClient(String user, String... extraArgs) throws IOException {
        JavaProcess client = JavaProcess.start("client " + user, clientJar, clientArgs(user, extraArgs),
                Map.of("CIM_USER_PASSWORD", password(user)));
        clients.add(client);
        return client;
    }

    static String password(String user) {
        return "pw-" + user + "-secret";
    }

    /** The whole command line that starts a client for {@code user}, for running it elsewhere (a terminal). */
    List<String> clientCommand(String user, String... extraArgs) {
        List<String> command = new ArrayList<>(List.of("env", "CIM_USER_PASSWORD=" + password(user)));
        command.addAll(JavaProcess.command(clientJar, clientArgs(user, extraArgs)));
        return command;
    }

    private List<String> clientArgs(String user, String... extraArgs) {
        List<String> args = new ArrayList<>(List.of(
                "--cim.user.name=" + user,
                "--cim.server.port=" + port,
                "--cim.client.reconnect-max-backoff=500ms",
                "--cim.client.state-dir=" + work.resolve("clients")));
        args.addAll(List.of(extraArgs));
        return args;
    }

    /** Starts a client for {@code user} and waits until it is logged in. */
    JavaProcess client(String user, String... extraArgs) throws IOException, InterruptedException {
        JavaProcess client = startClient(user, extraArgs);
        try {
            client.await("logged in as " + user, START);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + serverState(), e);
        }
        return client;
    }

    /** Whether the server still runs, and the end of its output: what a failed login needs explained. */
    String serverState() {
        if (server == null) {
            return "the server was not started";
        }
        List<String> lines = server.transcript().lines().toList();
        return "the server is " + (server.isAlive() ? "running" : "gone") + "; the end of its output:\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
    }

    @Override
    public void close() throws InterruptedException {
        for (JavaProcess client : clients) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
        if (redis != null) {
            redis.close();
        }
    }


    private static Path tempDir() {
        try {
            return Files.createTempDirectory("cim-e2e-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
