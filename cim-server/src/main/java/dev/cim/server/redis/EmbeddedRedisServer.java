package dev.cim.server.redis;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.RedisServer;

/**
 * A real redis-server process, from the binaries shipped in the embedded-redis jar, listening on
 * 127.0.0.1 only and keeping nothing on disk. {@link #start()} returns once Redis says it is ready to
 * accept connections; {@link #close()} stops the process.
 *
 * <p>The port is checked before the process is started, because Redis reports a taken port only in
 * its log and the library then answers with a generic "ready pattern not found".
 */
public final class EmbeddedRedisServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedisServer.class);
    private static final String BIND_ADDRESS = "127.0.0.1";

    private final int port;
    private RedisServer server;

    /**
     * @throws IllegalArgumentException if {@code port} is not in 1..65535
     */
    public EmbeddedRedisServer(int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("spring.data.redis.port: " + port + " (expected: 1 <= port <= 65535"
                    + " for the embedded Redis)");
        }
        this.port = port;
    }

    /**
     * Starts the process and waits until it accepts connections.
     *
     * @throws EmbeddedRedisStartException if the port is taken or the process fails to start
     */
    public synchronized void start() {
        if (server != null) {
            return;
        }
        requirePortFree();
        try {
            RedisServer redis = RedisServer.newRedisServer()
                    .port(port)
                    .bind(BIND_ADDRESS)
                    // Chat state lives as long as the server: no snapshots or append-only files
                    // left in the working directory.
                    .setting("save \"\"")
                    .setting("appendonly no")
                    .build();
            redis.start();
            server = redis;
        } catch (IOException | RuntimeException e) {
            throw new EmbeddedRedisStartException(port, "the redis-server process failed: " + e.getMessage(), e);
        }
        log.info("Embedded Redis started on {}:{}", BIND_ADDRESS, port);
    }

    /** The port Redis listens on. */
    public int port() {
        return port;
    }

    /** Stops the process; does nothing if it is not running. */
    @Override
    public synchronized void close() {
        if (server == null) {
            return;
        }
        try {
            server.stop();
            log.info("Embedded Redis on port {} stopped", port);
        } catch (IOException e) {
            log.warn("Embedded Redis on port {} did not stop cleanly: {}", port, e.getMessage());
        } finally {
            server = null;
        }
    }

    private void requirePortFree() {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(false);
            probe.bind(new InetSocketAddress(InetAddress.getByName(BIND_ADDRESS), port));
        } catch (IOException e) {
            throw new EmbeddedRedisStartException(port, "port " + port + " is already in use", e);
        }
    }
}
