package dev.cim.e2e;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.embedded.core.ExecutableProvider;

/**
 * A real redis-server process of its own, so that it outlives a server the tests kill, run as
 * production would run one: locked down as the server's embedded Redis is (a password, no
 * {@code CONFIG}, {@code DEBUG} or {@code MODULE}, a memory limit that never evicts), from the same
 * binary the server would choose: the first redis-server 7 or later on the {@code PATH}, else the
 * one in the embedded-redis jar (the rule of the server's {@code RedisExecutable}). The servers get
 * the password as production gets it, from the environment ({@link #serverEnvironment}).
 */
public final class RedisProcess implements AutoCloseable {

    private static final Pattern VERSION = Pattern.compile("v=(\\d+)\\.");

    private final Process process;
    private final String password;
    public final int port;

    private RedisProcess(Process process, int port, String password) {
        this.process = process;
        this.port = port;
        this.password = password;
    }

    /** A new random password, for {@link #start}. */
    public static String newPassword() {
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }

    /**
     * Starts Redis on {@code port}, persisting to an append-only file in {@code dataDir} (which it
     * reloads), written to disk every second ({@code everysec}) or at every write ({@code always}),
     * requiring {@code password}.
     */
    public static RedisProcess start(int port, Path dataDir, String fsync, String password)
            throws IOException, InterruptedException {
        Path binary = binary();
        Files.createDirectories(dataDir);
        // The password goes in a file only its owner reads, never on the command line.
        Path config = dataDir.resolve("redis.conf");
        Files.deleteIfExists(config);
        Files.createFile(config, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(config, String.join("\n",
                "port " + port,
                "bind 127.0.0.1",
                "dir \"" + dataDir + "\"",
                "save \"\"",
                "appendonly yes",
                "appendfilename cim.aof",
                "appendfsync " + fsync,
                "requirepass " + password,
                "maxmemory 1gb",
                "maxmemory-policy noeviction",
                "rename-command CONFIG \"\"",
                "rename-command DEBUG \"\"",
                "rename-command MODULE \"\"",
                ""));
        Process process = new ProcessBuilder(List.of(binary.toString(), config.toString()))
                .directory(dataDir.toFile()).redirectErrorStream(true).start();
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
            throw new IllegalStateException(binary + " on port " + port + " was not ready within 30 s");
        }
        return new RedisProcess(process, port, password);
    }

    /** The environment of a server jar that uses the Redis requiring {@code password}. */
    public static java.util.Map<String, String> serverEnvironment(String password) {
        return java.util.Map.of("SPRING_DATA_REDIS_PASSWORD", password);
    }

    /** The password it requires. */
    public String password() {
        return password;
    }

    /** The first redis-server 7 or later on the PATH, else the embedded-redis jar's. */
    private static Path binary() throws IOException, InterruptedException {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                Path candidate = Path.of(dir.isEmpty() ? "." : dir, "redis-server").toAbsolutePath();
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate) && major(candidate) >= 7) {
                    return candidate;
                }
            }
        }
        return ExecutableProvider.newJarResourceProvider().get().toPath();
    }

    private static int major(Path binary) throws IOException, InterruptedException {
        Process version = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
        String output;
        try (InputStream in = version.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        version.waitFor(10, TimeUnit.SECONDS);
        Matcher m = VERSION.matcher(output);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
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
