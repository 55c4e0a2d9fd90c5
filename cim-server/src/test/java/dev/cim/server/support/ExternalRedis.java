package dev.cim.server.support;

import dev.cim.server.redis.embedded.RedisExecutable;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server process configured by the test, standing for a Redis the operator runs (not the
 * server's embedded one): an ACL user, TLS, whatever the configuration says. Same binary choice as
 * the embedded Redis.
 */
public final class ExternalRedis implements AutoCloseable {

    private final Process process;
    private final RedisExecutable executable;

    private ExternalRedis(Process process, RedisExecutable executable) {
        this.process = process;
        this.executable = executable;
    }

    /**
     * Starts {@code executable} with {@code config} (lines of a redis.conf; {@code dir} and
     * {@code save ""} are added) and waits until it accepts connections.
     */
    public static ExternalRedis start(RedisExecutable executable, Path dir, String config) {
        return start(executable, dir, config, List.of(), "eady to accept connections");
    }

    /**
     * Starts a Sentinel ({@code redis-server --sentinel}) with {@code config} (its {@code sentinel
     * monitor} lines among them) and waits until it monitors its first master.
     */
    public static ExternalRedis startSentinel(RedisExecutable executable, Path dir, String config) {
        return start(executable, dir, config, List.of("--sentinel"), "+monitor master");
    }

    private static ExternalRedis start(RedisExecutable executable, Path dir, String config, List<String> args,
            String readyLine) {
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve("redis.conf");
            Files.writeString(file, config + "\ndir \"" + dir + "\"\nsave \"\"\n");
            List<String> command = new java.util.ArrayList<>(List.of(executable.path().toString(), file.toString()));
            command.addAll(args);
            Process process = new ProcessBuilder(command)
                    .directory(dir.toFile()).redirectErrorStream(true).start();
            CountDownLatch ready = new CountDownLatch(1);
            Deque<String> output = new ArrayDeque<>();
            Thread pump = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = out.readLine()) != null; ) {
                        synchronized (output) {
                            output.addLast(line);
                            if (output.size() > 20) {
                                output.removeFirst();
                            }
                        }
                        if (line.contains(readyLine)) {
                            ready.countDown();
                        }
                    }
                } catch (IOException ended) {
                    // the process ended
                }
            }, "external-redis");
            pump.setDaemon(true);
            pump.start();
            if (!ready.await(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                synchronized (output) {
                    throw new IllegalStateException(executable + " was not ready within 30 s: " + String.join("\n", output));
                }
            }
            return new ExternalRedis(process, executable);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public RedisExecutable executable() {
        return executable;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
