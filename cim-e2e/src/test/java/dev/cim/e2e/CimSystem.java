package dev.cim.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The system under test: a Redis process, the server jar and any number of client jars, each a
 * process of its own, talking over loopback TCP on free ports. A test class shares one by
 * registering it: {@code @RegisterExtension static final CimSystem cim = new CimSystem();}.
 */
final class CimSystem implements AutoCloseable, BeforeAllCallback, AfterAllCallback {

    static final Duration START = Duration.ofSeconds(60);

    private final Path projectDir = Path.of(System.getProperty("cim.project.dir", "..")).toAbsolutePath().normalize();
    private final Path serverJar = projectDir.resolve("cim-server/target/cim-server.jar");
    private final Path clientJar = projectDir.resolve("cim-client/target/cim-client.jar");
    private final int port = freePort();
    private final List<JavaProcess> clients = new ArrayList<>();
    private RedisProcess redis;
    private JavaProcess server;

    /** Starts Redis and the server, and waits until the server listens. */
    void start() throws IOException, InterruptedException {
        redis = RedisProcess.start(freePort());
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

    /** Starts the server and waits until it listens. */
    void startServer() throws IOException, InterruptedException {
        server = JavaProcess.start("cim-server", serverJar, List.of(
                "--cim.server.port=" + port,
                "--cim.server.node-id=e2e",
                "--cim.server.accounts.bcrypt-strength=4", // hashing cost is not under test here
                "--cim.redis.embedded=false",
                "--spring.data.redis.port=" + redis.port));
        server.await("listening on", START);
    }

    /** Ends the server as a crash would. */
    void killServer() throws InterruptedException {
        server.kill();
    }

    JavaProcess server() {
        return server;
    }

    /** The port the server listens on. */
    int port() {
        return port;
    }

    /** Starts a client for {@code user} (password "pw-" + user) without waiting for its login. */
    JavaProcess startClient(String user, String... extraArgs) throws IOException {
        JavaProcess client = JavaProcess.start("client " + user, clientJar, clientArgs(user, extraArgs));
        clients.add(client);
        return client;
    }

    /** The whole command line that starts a client for {@code user}, for running it elsewhere (a terminal). */
    List<String> clientCommand(String user, String... extraArgs) {
        return JavaProcess.command(clientJar, clientArgs(user, extraArgs));
    }

    private List<String> clientArgs(String user, String... extraArgs) {
        List<String> args = new ArrayList<>(List.of(
                "--cim.user.name=" + user,
                "--cim.user.password=pw-" + user,
                "--cim.server.port=" + port,
                "--cim.client.reconnect-max-backoff=500ms"));
        args.addAll(List.of(extraArgs));
        return args;
    }

    /** Starts a client for {@code user} and waits until it is logged in. */
    JavaProcess client(String user) throws IOException, InterruptedException {
        JavaProcess client = startClient(user);
        client.await("logged in as " + user, START);
        return client;
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

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
