package dev.cim.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The system under test: a Redis process, the server jar and any number of client jars, each a
 * process of its own, talking over loopback TCP on free ports.
 */
final class CimSystem implements AutoCloseable {

    static final Duration START = Duration.ofSeconds(60);

    private final Path projectDir = Path.of(System.getProperty("cim.project.dir", "..")).toAbsolutePath().normalize();
    private final Path serverJar = projectDir.resolve("cim-server/target/cim-server.jar");
    private final Path clientJar = projectDir.resolve("cim-client/target/cim-client.jar");
    private final RedisProcess redis;
    private final int port = freePort();
    private final List<JavaProcess> clients = new ArrayList<>();
    private JavaProcess server;

    CimSystem() throws IOException, InterruptedException {
        this.redis = RedisProcess.start(freePort());
        startServer();
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
        redis.close();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
