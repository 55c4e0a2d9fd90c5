package dev.cim.loadgen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The server jar running as a child process of the generator, with its own embedded Redis, both on
 * free loopback ports. Its output goes to a log file (reading it through a pipe would make the
 * server's logging wait on the generator). {@link #close()} stops it, and a shutdown hook calls it
 * too, so the server never outlives the generator however the generator ends.
 */
final class ChildServer implements AutoCloseable {

    private static final Duration START = Duration.ofSeconds(90);
    private static final Duration STOP = Duration.ofSeconds(20);

    private final Process process;
    private final int port;
    private final List<String> command;
    private final Path log;
    private final Thread hook = new Thread(this::close, "cim-loadgen-stop-server");

    private ChildServer(Process process, int port, List<String> command, Path log) {
        this.process = process;
        this.port = port;
        this.command = command;
        this.log = log;
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Starts {@code java -Xmx<heap> <jvmArgs> -jar <jar> <extraArgs>} with a fast password hash (logins are not what is
     * measured) and waits until it listens.
     *
     * @throws IllegalStateException if the jar is missing or the server does not start in time
     */
    static ChildServer start(Path jar, String heap, List<String> jvmArgs, List<String> extraArgs) throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar.toAbsolutePath() + " is missing (expected: the server jar; build with "
                    + "'mvn -B -ntp -DskipTests package' or pass --server-jar=...)");
        }
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap));
        command.addAll(jvmArgs);
        command.addAll(List.of(
                "-jar", jar.toAbsolutePath().toString(),
                "--cim.server.port=" + port,
                "--cim.server.node-id=loadgen",
                "--cim.server.accounts.bcrypt-strength=4",
                "--cim.redis.embedded=true",
                "--spring.data.redis.port=" + freePort()));
        command.addAll(extraArgs);
        Path log = Files.createTempFile("cim-loadgen-server-", ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        ChildServer server = new ChildServer(process, port, command, log);
        server.awaitListening();
        return server;
    }

    private void awaitListening() throws IOException {
        long deadline = System.nanoTime() + START.toNanos();
        while (System.nanoTime() < deadline) {
            String output = Files.readString(log, StandardCharsets.UTF_8);
            if (output.contains("listening on")) {
                return;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("the server exited with " + process.exitValue()
                        + " before listening; its output:\n" + output);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // polling the log, with a deadline
        }
        close();
        throw new IllegalStateException("the server did not listen within " + START + "; see " + log);
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    /** The whole command line that started the server. */
    List<String> command() {
        return command;
    }

    /** Where the server's output goes. */
    Path log() {
        return log;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Asks the server to stop (SIGTERM, so it stops its Redis too), and kills it if it lingers. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(STOP.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        if (Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to: nothing left to undo
            }
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
