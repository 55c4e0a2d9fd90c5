package dev.cim.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;

/**
 * A real Redis Cluster on loopback for a test: six redis-server processes, three masters with a
 * replica each, started and stopped by the repository's {@code bin/redis-cluster} (what a user runs),
 * on ports from {@code port}. A master can be killed (SIGKILL, by its pid file) to make its replica
 * take over.
 */
public final class RedisCluster implements AutoCloseable {

    private final Path script;
    private final Path dir;
    private final int port;

    private RedisCluster(Path script, Path dir, int port) {
        this.script = script;
        this.dir = dir;
        this.port = port;
    }

    /**
     * Starts the cluster in {@code dir} on ports {@code port} to {@code port + 5} and waits until it is
     * ok with its replicas (the script's own wait).
     */
    public static RedisCluster start(Path projectDir, Path dir, int port) throws IOException, InterruptedException {
        RedisCluster cluster = new RedisCluster(projectDir.resolve("bin/redis-cluster"), dir, port);
        cluster.run("start");
        return cluster;
    }

    private String run(String command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(List.of(script.toString(), command, "--dir", dir.toString(), "--port",
                Integer.toString(port))).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException("bin/redis-cluster " + command + " failed: " + output);
        }
        return output;
    }

    /** Every node, {@code 127.0.0.1:port,...}, for {@code spring.data.redis.cluster.nodes}. */
    public String nodes() {
        StringJoiner all = new StringJoiner(",");
        for (int p = port; p < port + 6; p++) {
            all.add("127.0.0.1:" + p);
        }
        return all.toString();
    }

    /** The password every node requires. */
    public String password() throws IOException {
        return Files.readString(dir.resolve("password")).strip();
    }

    /** The environment of a server jar that uses this cluster. */
    public java.util.Map<String, String> serverEnvironment() throws IOException {
        return java.util.Map.of("SPRING_DATA_REDIS_PASSWORD", password());
    }

    /** The ports of the current masters, as the first live node sees them. */
    public List<Integer> masters() throws IOException, InterruptedException {
        List<Integer> masters = new ArrayList<>();
        for (String line : run("status").lines().toList()) {
            if (line.endsWith(" master")) {
                masters.add(Integer.parseInt(line.substring(line.indexOf(':') + 1, line.indexOf(' '))));
            }
        }
        return masters;
    }

    /** SIGKILLs the node on {@code nodePort}; its replica (or, for a replica, nothing) takes over. */
    public void kill(int nodePort) throws IOException {
        long pid = Long.parseLong(Files.readString(dir.resolve(nodePort + "/redis.pid")).strip());
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        ProcessHandle.of(pid).ifPresent(p -> p.onExit().orTimeout(10, TimeUnit.SECONDS).join());
    }

    /** Starts again whatever node is down (it rejoins from its files), and waits for the cluster. */
    public void restart() throws IOException, InterruptedException {
        run("start");
    }

    /** Waits up to {@code timeout} for the cluster to be ok again (after a failover). */
    public Duration awaitOk(Duration timeout) throws IOException, InterruptedException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (run("status").contains("cluster_state:ok")) {
                    return Duration.ofNanos(System.nanoTime() - start);
                }
            } catch (IllegalStateException notYet) {
                // the node asked is the one killed, or the cluster is failing over
            }
            TimeUnit.MILLISECONDS.sleep(100); // polling the cluster's state, with a deadline
        }
        throw new AssertionError("the Redis Cluster was not ok within " + timeout);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run("stop");
    }
}
