package dev.cim.e2e;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import redis.embedded.core.ExecutableProvider;

/**
 * A real redis-server process of its own, from the binaries in the embedded-redis jar, so that it
 * outlives a server the tests kill.
 */
public final class RedisProcess implements AutoCloseable {

    private final Process process;
    public final int port;

    private RedisProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts Redis on {@code port}, persisting to an append-only file in {@code dataDir} (which it
     * reloads), written to disk every second ({@code everysec}) or at every write ({@code always}).
     */
    public static RedisProcess start(int port, java.nio.file.Path dataDir, String fsync) throws IOException, InterruptedException {
        File binary = ExecutableProvider.newJarResourceProvider().get();
        java.nio.file.Files.createDirectories(dataDir);
        Process process = new ProcessBuilder(List.of(binary.getAbsolutePath(), "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--dir", dataDir.toString(), "--save", "", "--appendonly", "yes",
                "--appendfilename", "cim.aof", "--appendfsync", fsync))
                .directory(binary.getParentFile()).redirectErrorStream(true).start();
        CountDownLatch ready = new CountDownLatch(1);
        Thread pump = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.contains("eady to accept connections")) {
                        ready.countDown();
                    }
                }
            } catch (IOException ended) {
                // the process ended
            }
        }, "redis-" + port);
        pump.setDaemon(true);
        pump.start();
        if (!ready.await(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("redis-server on port " + port + " was not ready within 30 s");
        }
        return new RedisProcess(process, port);
    }

    /** Ends Redis as a crash would (SIGKILL). */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    public ProcessHandle handle() {
        return process.toHandle();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
