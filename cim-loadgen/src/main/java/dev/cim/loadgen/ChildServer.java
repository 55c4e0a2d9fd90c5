package dev.cim.loadgen;

import dev.cim.common.tls.SelfSignedCertificate;
import dev.cim.testkit.Ports;
import dev.cim.testkit.Processes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server jar running as a child process of the generator, with its own embedded Redis, both on
 * free loopback ports. Its output goes to a log file (reading it through a pipe would make the
 * server's logging wait on the generator). {@link #close()} stops it, and a shutdown hook calls it
 * too, so the server never outlives the generator however the generator ends.
 *
 * <p>Nor does anything the server started (its redis-server and that one's watchdog): the server
 * stops them itself, even when killed, but a server that could not (an older jar, a machine without
 * {@code /bin/sh}) would leave them running after the generator, so {@link #close()} kills whatever
 * is left ({@link Processes#stop}). Those processes are recorded while the server runs, because
 * once it is gone they are no longer its descendants. Its ports are chosen by {@link Ports#free}, as
 * the tests' are: below the kernel's ephemeral range, so that no outgoing connection takes one
 * before the server binds it.
 */
final class ChildServer implements AutoCloseable {

    private static final Duration START = Duration.ofSeconds(90);
    /** How the server's "listening on" line names its TLS provider. */
    private static final Pattern TLS_BY = Pattern.compile("TLS by (OpenSSL \\([^)]*\\)|JDK)");
    /**
     * How long the server may take to stop on SIGTERM before it is killed. Its own stop takes about
     * 22 s when every step runs into its timeout: closing the connections (5 s) and ending its thread
     * pools (5 s) in {@code CimServer}, removing its presence from Redis (the 5 s Redis command
     * timeout), closing Lettuce (2 s) and stopping Redis (5 s). It was 20 s, less than that. A stop
     * normally takes a second or two; the margin is for a busy machine.
     */
    private static final Duration STOP = Duration.ofSeconds(30);
    /**
     * How long the processes the server started may take to exit once it is gone: its Redis gets
     * SIGTERM from the server or from its watchdog, and exits within a Redis cron tick (100 ms).
     */
    private static final Duration LEFTOVERS = Duration.ofSeconds(5);

    private volatile Process process;
    private final int port;
    private final int webPort;
    private final List<String> command;
    /** This life's log: a restart starts a new one, so that its "listening on" is not the last life's. */
    private volatile Path log;
    private final Path trust;
    private final int redisPort;
    private final Path dataDir;
    /** "plaintext", or "TLS by OpenSSL (BoringSSL)": what the server said when it started listening. */
    private volatile String security = "plaintext";
    private final Thread hook = new Thread(this::close, "cim-loadgen-stop-server");
    /** What the server started (its Redis, and that one's watchdog), recorded once it listened. */
    private volatile List<ProcessHandle> started = List.of();

    private ChildServer(Process process, int port, int webPort, List<String> command, Path log, Path trust,
            int redisPort, Path dataDir) {
        this.process = process;
        this.port = port;
        this.webPort = webPort;
        this.command = command;
        this.log = log;
        this.trust = trust;
        this.redisPort = redisPort;
        this.dataDir = dataDir;
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Starts {@code java -Xmx<heap> <jvmArgs> -jar <jar> <extraArgs>} with a fast password hash (logins are not what is
     * measured) and waits until it listens. With {@code tls}, the server gets a self-signed
     * certificate for {@code localhost} and {@code 127.0.0.1}, made for this run in a temporary
     * directory ({@link #trust()} is its PEM file, for the clients to trust).
     *
     * @throws IllegalStateException if the jar is missing or the server does not start in time
     */
    static ChildServer start(Path jar, String heap, List<String> jvmArgs, List<String> extraArgs, boolean tls)
            throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar.toAbsolutePath() + " is missing (expected: the server jar; build with "
                    + "'./mvnw -B -ntp -DskipTests package' or pass --server-jar=...)");
        }
        int port = Ports.free();
        int webPort = Ports.free();
        int redisPort = Ports.free();
        Path dataDir = Files.createTempDirectory("cim-loadgen-redis-");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap));
        command.addAll(jvmArgs);
        command.addAll(List.of(
                "-jar", jar.toAbsolutePath().toString(),
                "--cim.server.port=" + port,
                "--cim.server.node-id=loadgen",
                "--cim.server.accounts.bcrypt-strength=4",
                // The generator is one address making thousands of accounts, connections and messages
                // per second: the limits meant for strangers on a network are lifted.
                "--cim.server.accounts.registrations-per-address=100000000",
                "--cim.server.limits.connections-per-address=100000000",
                "--cim.server.limits.unauthenticated-per-address=100000000",
                "--cim.server.limits.messages-per-second=100000000",
                "--cim.server.limits.message-burst=100000000",
                // Part 4's senders schedule over a thousand messages each (a million far-future ones
                // from 1,000 senders, then the near and burst ones), past the default cap of 1,000.
                "--cim.server.delays.max-per-user=100000000",
                "--cim.server.redis.embedded=true",
                "--cim.server.data-dir=" + dataDir,
                "--management.server.port=" + Ports.free(),
                "--cim.server.web.port=" + webPort,
                "--spring.data.redis.port=" + redisPort));
        Path trust = null;
        if (tls) {
            Path dir = Files.createTempDirectory("cim-loadgen-tls-");
            trust = dir.resolve("cert.pem");
            Path key = dir.resolve("key.pem");
            SelfSignedCertificate.generate("cim-loadgen", List.of("localhost", "127.0.0.1"), Duration.ofDays(2))
                    .write(trust, key);
            command.add("--cim.server.tls.certificate=" + trust);
            command.add("--cim.server.tls.private-key=" + key);
        }
        // A setting given again replaces the default above (Spring would join the two with a comma).
        for (String extra : extraArgs) {
            int equals = extra.indexOf('=');
            if (extra.startsWith("--") && equals > 0) {
                String key = extra.substring(0, equals + 1);
                command.removeIf(arg -> arg.startsWith(key));
            }
        }
        command.addAll(extraArgs);
        Path log = newLog();
        ChildServer server = new ChildServer(launch(command, log), port, webPort, command, log, trust, redisPort,
                dataDir);
        server.awaitListening();
        return server;
    }

    private void awaitListening() throws IOException {
        String output;
        try {
            output = ChildOutput.await(process, log, "listening on", START, "the server");
        } catch (IllegalStateException e) {
            close();
            throw e;
        }
        // Redis is up before the server listens: the context starts it first.
        started = process.descendants().toList();
        Matcher tls = TLS_BY.matcher(output);
        security = tls.find() ? tls.group() : "plaintext";
    }

    int port() {
        return port;
    }

    /** The web port: the page, and the protocol over WebSocket on {@code /ws}. */
    int webPort() {
        return webPort;
    }

    /** Reads the memory of the server's embedded Redis (its port, and the password it made in its data directory). */
    RedisProbe redis() {
        return new RedisProbe(redisPort, dataDir.resolve("redis.password"));
    }

    /** The PEM file of the server's certificate, for clients to trust; null for a plaintext server. */
    Path trust() {
        return trust;
    }

    /** "plaintext", or the TLS provider the server reported: "TLS by OpenSSL (BoringSSL)", "TLS by JDK". */
    String security() {
        return security;
    }

    long pid() {
        return process.pid();
    }

    /** The port of the server's management endpoints ({@code /actuator/prometheus}), as its command gives it. */
    int managementPort() {
        String key = "--management.server.port=";
        for (int i = command.size() - 1; i >= 0; i--) {
            if (command.get(i).startsWith(key)) {
                return Integer.parseInt(command.get(i).substring(key.length()));
            }
        }
        throw new IllegalStateException("the server was started without " + key);
    }

    /** The server's pid and those of the processes it started (its Redis, and that one's watchdog). */
    List<Long> pids() {
        List<Long> pids = new ArrayList<>();
        pids.add(process.pid());
        started.forEach(p -> pids.add(p.pid()));
        return pids;
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

    /**
     * Stops the server as an operator would (SIGTERM: it tells its clients to go away and closes
     * them) and starts it again with the same command: the same ports and data directory, so its
     * Redis comes back with the accounts, session tokens and messages it held. Returns once it
     * listens again; its pid is a new one.
     *
     * @throws IllegalStateException if it does not listen again in time
     */
    void restart() throws IOException {
        stop();
        log = newLog();
        process = launch(command, log);
        awaitListening();
    }

    private static Path newLog() throws IOException {
        return Files.createTempFile("cim-loadgen-server-", ".log");
    }

    private static Process launch(List<String> command, Path log) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /**
     * SIGTERM to the server, a kill after {@link #STOP}, then a kill for whatever it started that is
     * still running after {@link #LEFTOVERS}; each kill reported on standard error.
     */
    private void stop() {
        Processes.Stopped stopped = Processes.stop(process, started, STOP, LEFTOVERS);
        if (stopped.killed()) {
            System.err.println("cim-loadgen: the server (pid " + process.pid() + ") did not stop within " + STOP
                    + " of SIGTERM and was killed; its log: " + log);
        }
        for (ProcessHandle leftover : stopped.leftovers()) {
            System.err.println("cim-loadgen: killed pid " + leftover.pid() + " ("
                    + leftover.info().command().orElse("command unknown") + "), which the server (pid "
                    + process.pid() + ") had started and left running");
        }
    }

    /**
     * Asks the server to stop (SIGTERM, so it stops its Redis too), kills it if it is still running
     * after {@link #STOP}, and then kills whatever it started that is still running after
     * {@link #LEFTOVERS}; each kill is reported on standard error. Then deletes the Redis data
     * directory made for the run (part 4 leaves a million messages in it, hundreds of megabytes of
     * append-only file); the server's log stays.
     */
    @Override
    public void close() {
        stop();
        deleteTree(dataDir);
        if (Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to: nothing left to undo
            }
        }
    }

    /** Deletes {@code dir} and everything in it, as far as it can; what cannot be deleted stays. */
    static void deleteTree(Path dir) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    // best effort: a temporary directory
                }
            });
        } catch (IOException | UncheckedIOException e) {
            System.err.println("cim-loadgen: could not delete " + dir + ": " + e);
        }
    }
}
