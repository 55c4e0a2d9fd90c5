package dev.cim.server.redis.embedded;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real redis-server process, listening on 127.0.0.1 only and persisting to an append-only file in
 * its data directory, which it reloads at start (fsync every second by default, or at every write).
 * The binary is the newest maintained one found, else the one shipped in the embedded-redis jar
 * ({@link RedisExecutable}); either way it requires a password, kept in the data directory, and has
 * {@code CONFIG}, {@code DEBUG} and {@code MODULE} removed and a {@code maxmemory} that refuses writes
 * rather than evicting data ({@link RedisLockdown}). {@link #start()} returns once Redis says it is
 * ready to accept connections, which is after it has loaded its data; {@link #close()} stops the
 * process, which writes what is left to its file first. Redis never outlives this JVM, even when the
 * JVM is killed with SIGKILL: a watchdog process stops it then.
 *
 * <h3>Why not the library's {@code RedisServer}</h3>
 * Only its binaries are used. Its {@code RedisServer} registers a JVM shutdown hook that kills Redis
 * the moment the JVM is asked to stop, in parallel with Spring's own shutdown, so the server lost
 * Redis before it could remove its presence. Here the process lives until the Spring context closes
 * this bean, after everything that uses Redis has stopped. The port is also checked first, because
 * Redis reports a taken port only in its log.
 *
 * <h3>Why a watchdog process</h3>
 * When the JVM ends normally, or on SIGTERM or Ctrl-C, Spring closes this bean and {@link #close()}
 * stops Redis. When the JVM is killed (SIGKILL, the OOM killer, a crash) no Java code runs, and
 * Redis, a child process of its own, would go on running, holding its port and memory. So next to
 * Redis runs a {@code /bin/sh} watchdog ({@link #WATCHDOG_SCRIPT}) whose standard input is a pipe from
 * this JVM, which never writes to it. The kernel closes the JVM's end of the pipe when the JVM dies,
 * however it dies; the watchdog's {@code read} then sees end of file at once and sends Redis SIGTERM,
 * on which Redis shuts down cleanly, writing its append-only file to disk first. Only this JVM
 * holds that end: the JDK closes every descriptor above 2 in the processes it starts.
 *
 * <p>The alternatives, and why not:
 * <ul>
 * <li>Make Redis die with its parent ({@code prctl(PR_SET_PDEATHSIG)}): it must be called in the
 *     child between fork and exec, which {@link ProcessBuilder} has no hook for, and Java 17 has no
 *     stable foreign-function API to reach it. A wrapper that does it ({@code setpriv --pdeathsig},
 *     util-linux) is Linux-only and not in every image, and either way the signal comes when the
 *     <em>thread</em> that started Redis ends, not the JVM: whichever thread Spring (or a test) starts
 *     this bean on would have to live as long as the JVM. A shell that execs Redis (as {@code setsid}
 *     does) leaves nothing behind to watch the JVM.</li>
 * <li>A watchdog that polls the JVM's pid ({@code while kill -0 $PPID}): it notices late (once per
 *     poll), and should another process get the JVM's pid before the next poll, it goes on waiting
 *     for that one.</li>
 * <li>At the next start, kill a stale Redis recorded in a pid file: Redis would run on until then,
 *     which may be never on that port (the load generator picks a free port each run), and a pid
 *     read from a file may by then belong to an unrelated process.</li>
 * </ul>
 * The watchdog signals Redis' pid, so it must never outlive Redis, lest it signal a pid reused by
 * another process: {@link #close()} stops it (and waits for it) before Redis, and it is stopped when
 * Redis exits by itself. Where {@code /bin/sh} cannot be run (Windows), Redis runs without a watchdog,
 * and a warning says so.
 *
 * <p>One concept, a Redis process owned by this JVM, whose length is the reasons above and the
 * watchdog's script; the lock-down is {@link RedisLockdown}'s and the binary's choice
 * {@link RedisExecutable}'s.
 */
public final class EmbeddedRedisServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedisServer.class);
    private static final String BIND_ADDRESS = "127.0.0.1";
    private static final String READY = "eady to accept connections";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60); // it loads its append-only file first
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration WATCHDOG_STOP_TIMEOUT = Duration.ofSeconds(2);
    private static final String WATCHDOG_SHELL = "/bin/sh";
    /** The password file in the data directory, mode 0600, made at the first start and kept. */
    public static final String PASSWORD_FILE = "redis.password";
    /** The configuration file in the data directory, mode 0600, written at every start. */
    public static final String CONFIG_FILE = "redis.conf";

    /**
     * The watchdog, run as {@code sh -c SCRIPT cim-redis-watchdog REDIS_PID} (so {@code $1} is Redis'
     * pid): it reads its standard input, which this JVM never writes to, until end of file, that is
     * until this JVM is gone, and then sends Redis SIGTERM. It ignores the hangup, interrupt and quit
     * signals that a terminal sends to every process in its foreground group, so closing the terminal
     * or pressing Ctrl-C does not take it away while the JVM is still shutting down; {@link #close()}
     * ends it with SIGKILL.
     */
    private static final String WATCHDOG_SCRIPT = "trap '' HUP INT QUIT; "
            + "while read -r line; do :; done; "
            + "kill -TERM \"$1\" 2>/dev/null";

    private final int port;
    private final Path dataDir;
    private final Options options;
    private RedisExecutable executable;
    private String password;
    private Process process;
    private Watchdog watchdog;

    /**
     * How the embedded Redis runs.
     *
     * @param fsync      {@code everysec} or {@code always} (Redis' {@code appendfsync})
     * @param executable which redis-server: empty for the newest maintained one found, {@code bundled}
     *                   or a path (see {@link RedisExecutable#resolve})
     * @param maxmemory  the most memory Redis may use for data, in bytes; past it, writes fail
     */
    public record Options(String fsync, String executable, long maxmemory) {

        /** The default limit, as in {@code CimServerProperties}. */
        public static final long DEFAULT_MAXMEMORY = 1L << 30;

        /** Redis warns below this, and could hardly hold its own bookkeeping. */
        public static final long MIN_MAXMEMORY = 1L << 20;

        public Options {
            if (!"everysec".equals(fsync) && !"always".equals(fsync)) {
                throw new IllegalArgumentException("fsync: '" + fsync + "' (expected: everysec or always)");
            }
            if (maxmemory < MIN_MAXMEMORY) {
                throw new IllegalArgumentException("maxmemory: " + maxmemory + " bytes (expected: >= "
                        + MIN_MAXMEMORY + ")");
            }
            executable = executable == null ? "" : executable;
        }

        /** {@code fsync}, the newest binary found, and {@link #DEFAULT_MAXMEMORY}. */
        public static Options of(String fsync) {
            return new Options(fsync, "", DEFAULT_MAXMEMORY);
        }
    }

    /**
     * With the newest binary found and a 1 GB {@code maxmemory}.
     *
     * @param dataDir where the append-only file and the password live; created if missing
     * @param fsync   {@code everysec} or {@code always} (Redis' {@code appendfsync})
     * @throws IllegalArgumentException if {@code port} is not in 1..65535
     */
    public EmbeddedRedisServer(int port, Path dataDir, String fsync) {
        this(port, dataDir, Options.of(fsync));
    }

    /**
     * @param dataDir where the append-only file and the password live; created if missing
     * @throws IllegalArgumentException if {@code port} is not in 1..65535
     */
    public EmbeddedRedisServer(int port, Path dataDir, Options options) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("spring.data.redis.port: " + port + " (expected: 1 <= port <= 65535"
                    + " for the embedded Redis)");
        }
        this.port = port;
        this.dataDir = dataDir.toAbsolutePath();
        this.options = options;
    }

    /**
     * Starts the process and waits until it accepts connections.
     *
     * @throws EmbeddedRedisStartException if the port is taken, the data directory or the password
     *                                     cannot be set up, or the process fails to start
     */
    public synchronized void start() {
        if (process != null) {
            return;
        }
        requirePortFree();
        RedisExecutable binary = executable();
        Path config;
        try {
            RedisLockdown.privateDirectory(dataDir);
            password = RedisLockdown.password(dataDir.resolve(PASSWORD_FILE));
            requireReadableData(binary);
            config = dataDir.resolve(CONFIG_FILE);
            RedisLockdown.writePrivate(config, config(binary));
        } catch (IOException | RuntimeException e) {
            throw new EmbeddedRedisStartException(port, "its data directory " + dataDir + " cannot be set up: "
                    + e.getMessage(), e);
        }
        Deque<String> recentOutput = new ArrayDeque<>();
        CountDownLatch outputSettled = new CountDownLatch(1);
        AtomicBoolean ready = new AtomicBoolean();
        Process started;
        try {
            // Only the configuration file on the command line: the password must not show in the
            // process list, which every user of the machine can read.
            started = new ProcessBuilder(List.of(binary.path().toString(), config.toString()))
                    .directory(dataDir.toFile())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException | RuntimeException e) {
            throw new EmbeddedRedisStartException(port, "the redis-server binary " + binary.path()
                    + " could not be run: " + e.getMessage(), e);
        }
        // At once, before waiting for Redis to get ready: the JVM may be killed at any time.
        Watchdog guard = Watchdog.start(started, port);
        Thread reader = new Thread(() -> pump(started, recentOutput, ready, outputSettled), "cim-embedded-redis-" + port);
        reader.setDaemon(true);
        reader.start();
        awaitReady(started, guard, ready, outputSettled, recentOutput);
        process = started;
        watchdog = guard;
        log.info("Embedded Redis {} started on {}:{} (pid {}, {}), data in {} (append-only file, fsync {}), "
                        + "password in {}, maxmemory {} MB (noeviction), CONFIG, DEBUG and MODULE disabled",
                binary, BIND_ADDRESS, port, started.pid(), guard == null ? "no watchdog" : "watchdog pid " + guard.pid(),
                dataDir, options.fsync(), dataDir.resolve(PASSWORD_FILE), options.maxmemory() >> 20);
    }

    /**
     * The binary this server runs, resolved from {@link Options#executable()} at the first call
     * (logging a warning when it falls back to the bundled one).
     *
     * @throws EmbeddedRedisStartException if it cannot be resolved
     */
    public synchronized RedisExecutable executable() {
        if (executable == null) {
            try {
                RedisExecutable.Choice choice = RedisExecutable.resolve(options.executable());
                choice.warning().ifPresent(log::warn);
                executable = choice.executable();
            } catch (IOException | IllegalArgumentException e) {
                throw new EmbeddedRedisStartException(port, e.getMessage(), e);
            }
        }
        return executable;
    }

    /**
     * The password clients must give ({@code AUTH}), kept in {@value #PASSWORD_FILE} in the data
     * directory; known once {@link #start()} has run.
     *
     * @throws IllegalStateException before the first start
     */
    public synchronized String password() {
        if (password == null) {
            throw new IllegalStateException("the embedded Redis on port " + port + " has not been started yet");
        }
        return password;
    }

    /** The port Redis listens on. */
    public int port() {
        return port;
    }

    /** Where Redis keeps its data. */
    public Path dataDir() {
        return dataDir;
    }

    /**
     * Redis 7 keeps its append-only file as several files in {@code appendonlydir}; Redis 6 looks for
     * one file in the data directory, and, not finding it, would start empty: every account and
     * inbox seemingly gone. So an older binary never starts on a newer layout (as after a fallback to
     * the bundled 6.2 on a machine where Redis 7 was removed). The other way is fine: Redis 7 reads a
     * 6.2 file and converts it.
     */
    private void requireReadableData(RedisExecutable binary) {
        if (!binary.version().atLeast7() && Files.isDirectory(dataDir.resolve("appendonlydir"))) {
            throw new IllegalStateException("it holds the data of Redis 7 or later (appendonlydir), which " + binary
                    + " cannot read; install redis-server 7 or later (Debian/Ubuntu: apt-get install redis-server) "
                    + "or name one with --cim.server.redis.executable=PATH");
        }
    }

    /**
     * The bytes of a stream's node. Redis 7 allocates a stream's first node at this size (up to
     * 4,096, its default): a conversation's log of one message then holds 4,728 bytes, and most private
     * conversations are short. At 1,024 (redis-benchmark, 2,000,000 {@code XADD}s of 110 bytes,
     * {@code MAXLEN ~ 10000}): 500,000 streams of 4 entries take 630 MB against 2,126 MB, at 4.24
     * against 5.24 µs of Redis CPU per {@code XADD}; 1,000 streams of 2,000 take 6.6 % more memory,
     * {@code XADD} 2.78 against 3.81 µs, {@code XREVRANGE … COUNT 50} 46.1 against 44.8 µs.
     */
    static final int STREAM_NODE_MAX_BYTES = 1024;

    /** The configuration file's text; see {@link RedisLockdown} for the reasons. */
    private String config(RedisExecutable binary) {
        StringBuilder c = new StringBuilder();
        c.append("# Written by cim at every start of its embedded Redis: edits are lost.\n");
        c.append("port ").append(port).append('\n');
        c.append("bind ").append(BIND_ADDRESS).append('\n');
        c.append("protected-mode yes\n");
        // Every write goes to an append-only file, reloaded at start; no snapshots beside it.
        c.append("dir ").append(RedisLockdown.quote(dataDir.toString())).append('\n');
        c.append("appendonly yes\n");
        c.append("appendfilename cim.aof\n");
        c.append("appendfsync ").append(options.fsync()).append('\n');
        c.append("save \"\"\n");
        c.append("stream-node-max-bytes ").append(STREAM_NODE_MAX_BYTES).append('\n');
        c.append(RedisLockdown.settings(password, options.maxmemory(), binary.version()));
        return c.toString();
    }

    /** The pid of the redis-server process, or -1 when it is not running. */
    public synchronized long pid() {
        return process == null ? -1 : process.pid();
    }

    /** Stops the process, waiting a few seconds for it to exit; does nothing if it is not running. */
    @Override
    public synchronized void close() {
        if (process == null) {
            return;
        }
        Process stopping = process;
        process = null;
        if (watchdog != null) {
            // First, and waiting for it: see the class comment.
            watchdog.stop();
            watchdog = null;
        }
        stopping.destroy(); // SIGTERM: Redis writes its append-only file to disk and exits.
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

    private void awaitReady(Process started, Watchdog guard, AtomicBoolean ready, CountDownLatch outputSettled,
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
            if (guard != null) {
                guard.stop();
            }
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

    /** The watchdog process of one Redis; see the class comment. */
    private static final class Watchdog {

        private final Process process;
        private final int port;
        private volatile boolean stopping;

        private Watchdog(Process process, int port) {
            this.process = process;
            this.port = port;
        }

        /** Starts the watchdog of {@code redis}, or returns null, with a warning, if it cannot run. */
        static Watchdog start(Process redis, int port) {
            Process process;
            try {
                process = new ProcessBuilder(List.of(WATCHDOG_SHELL, "-c", WATCHDOG_SCRIPT, "cim-redis-watchdog",
                                Long.toString(redis.pid())))
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(ProcessBuilder.Redirect.DISCARD)
                        .start();
            } catch (IOException | RuntimeException e) {
                log.warn("No watchdog for the embedded Redis on port {} ({} could not be run: {}); if this JVM "
                        + "is killed, Redis will go on running", port, WATCHDOG_SHELL, e.getMessage());
                return null;
            }
            Watchdog watchdog = new Watchdog(process, port);
            // Redis exited by itself (or was killed): its pid may be reused, so the watchdog goes too.
            redis.onExit().thenRun(watchdog::stopWithoutWaiting);
            process.onExit().thenRun(() -> {
                if (!watchdog.stopping && redis.isAlive()) {
                    log.warn("The watchdog of the embedded Redis on port {} (pid {}) exited with {}; if this JVM "
                            + "is killed, Redis will go on running", port, process.pid(), process.exitValue());
                }
            });
            return watchdog;
        }

        long pid() {
            return process.pid();
        }

        /** Ends the watchdog, without letting it signal Redis, and waits for it to be gone. */
        void stop() {
            stopWithoutWaiting();
            try {
                if (!process.waitFor(WATCHDOG_STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    log.warn("The watchdog of the embedded Redis on port {} (pid {}) did not exit within {} of "
                            + "SIGKILL", port, process.pid(), WATCHDOG_STOP_TIMEOUT);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void stopWithoutWaiting() {
            stopping = true;
            // SIGKILL: it cannot be trapped, and the watchdog has nothing to clean up.
            process.destroyForcibly();
        }
    }
}
