package dev.cim.server.redis;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.core.ExecutableProvider;

/**
 * A real redis-server process, from the binaries shipped in the embedded-redis jar, listening on
 * 127.0.0.1 only and keeping nothing on disk. {@link #start()} returns once Redis says it is ready to
 * accept connections; {@link #close()} stops the process.
 *
 * <h3>Why not the library's {@code RedisServer}</h3>
 * Only its binaries are used. Its {@code RedisServer} registers a JVM shutdown hook that kills Redis
 * the moment the JVM is asked to stop, in parallel with Spring's own shutdown, so the server lost
 * Redis before it could remove its presence. Here the process lives until the Spring context closes
 * this bean, after everything that uses Redis has stopped. The port is also checked first, because
 * Redis reports a taken port only in its log.
 */
public final class EmbeddedRedisServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedisServer.class);
    private static final String BIND_ADDRESS = "127.0.0.1";
    private static final String READY = "eady to accept connections";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

    private final int port;
    private Process process;

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
        if (process != null) {
            return;
        }
        requirePortFree();
        Deque<String> recentOutput = new ArrayDeque<>();
        CountDownLatch outputSettled = new CountDownLatch(1);
        AtomicBoolean ready = new AtomicBoolean();
        Process started;
        try {
            File binary = ExecutableProvider.newJarResourceProvider().get();
            started = new ProcessBuilder(List.of(binary.getAbsolutePath(),
                            "--port", Integer.toString(port),
                            "--bind", BIND_ADDRESS,
                            // Chat state lives as long as the server: no snapshot or append-only
                            // file is written to the working directory.
                            "--save", "",
                            "--appendonly", "no"))
                    .directory(binary.getParentFile())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException | RuntimeException e) {
            throw new EmbeddedRedisStartException(port, "the redis-server binary could not be run: " + e.getMessage(), e);
        }
        Thread reader = new Thread(() -> pump(started, recentOutput, ready, outputSettled), "cim-embedded-redis-" + port);
        reader.setDaemon(true);
        reader.start();
        awaitReady(started, ready, outputSettled, recentOutput);
        process = started;
        log.info("Embedded Redis started on {}:{} (pid {})", BIND_ADDRESS, port, started.pid());
    }

    /** The port Redis listens on. */
    public int port() {
        return port;
    }

    /** Stops the process, waiting a few seconds for it to exit; does nothing if it is not running. */
    @Override
    public synchronized void close() {
        if (process == null) {
            return;
        }
        Process stopping = process;
        process = null;
        stopping.destroy(); // SIGTERM: Redis shuts down cleanly (and, with save "", writes nothing).
        try {
            if (!stopping.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                stopping.destroyForcibly();
                log.warn("Embedded Redis on port {} ignored SIGTERM for {}; killed", port, STOP_TIMEOUT);
            } else {
                log.info("Embedded Redis on port {} stopped", port);
            }
        } catch (InterruptedException e) {
            stopping.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private void awaitReady(Process started, AtomicBoolean ready, CountDownLatch outputSettled,
            Deque<String> recentOutput) {
        String failure = null;
        try {
            if (!outputSettled.await(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                failure = "not ready after " + START_TIMEOUT.toSeconds() + " s";
            } else if (!ready.get()) {
                failure = "redis-server exited before it was ready";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = "interrupted while waiting for it";
        }
        if (failure != null) {
            started.destroyForcibly();
            String output;
            synchronized (recentOutput) {
                output = String.join(" | ", recentOutput);
            }
            throw new EmbeddedRedisStartException(port, failure + "; its output: " + output, null);
        }
    }

    /**
     * Reads the process' output to its end, so the pipe never fills and blocks Redis. Counts down
     * {@code outputSettled} at the ready line (after setting {@code ready}) or at the end of the
     * output, when the process died first.
     */
    private void pump(Process started, Deque<String> recentOutput, AtomicBoolean ready,
            CountDownLatch outputSettled) {
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(started.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                log.debug("redis:{} {}", port, line);
                synchronized (recentOutput) {
                    recentOutput.addLast(line.strip());
                    if (recentOutput.size() > 5) {
                        recentOutput.removeFirst();
                    }
                }
                if (line.contains(READY)) {
                    ready.set(true);
                    outputSettled.countDown();
                }
            }
        } catch (IOException e) {
            log.debug("Stopped reading the output of Redis on port {}: {}", port, e.toString());
        } finally {
            outputSettled.countDown();
        }
    }

    private void requirePortFree() {
        try (ServerSocket probe = new ServerSocket()) {
            // As Redis does: a port held only by connections in TIME_WAIT is free to listen on.
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(InetAddress.getByName(BIND_ADDRESS), port));
        } catch (IOException e) {
            throw new EmbeddedRedisStartException(port, "port " + port + " is already in use", e);
        }
    }
}
