package dev.cim.loadgen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Part 3 beyond one process: these machines cap open files per process (20,000), so more
 * connections than one generator can hold are split over {@code --generators} processes of this
 * same program, each holding its share against one of the child servers in turn ({@code --port} and
 * {@code --server-pid} of that node). They run at once; their part 3 rows are gathered into this
 * report, each under its generator and node, and the connections held are summed. Each node's
 * logins again are also read from the server itself ({@link ServerLogins}): the rate a node
 * sustained, whatever the number of generators that drove it.
 *
 * <p>Each binds its connections from 127.0.0.10 up, {@value #PER_SOURCE_ADDRESS} per address: the
 * generators share those addresses, and each address's ephemeral ports (about 28,000) must hold
 * every generator's connections from it, and the first pool's in TIME_WAIT when the users log in
 * again.
 *
 * <p>With {@code --restart-node=K}, every generator holds its users, logged in again
 * ({@code --await-restart}); once all say so, node K is restarted here (SIGTERM, then the same
 * command), and the logins of every node are read until they have counted each of its users back:
 * a stopping node sends its clients to the others ({@code GoAway}), so they come back wherever there
 * is room. Node K's generators report their own clients back; the others, once released, how many
 * of theirs they held through it.
 */
final class GeneratorFleet {

    /** Connections each generator binds from one loopback source address. */
    static final int PER_SOURCE_ADDRESS = 1000;
    /** How long the fleet may take, at most: logins, the hold, the logins again. */
    private static final Duration DEADLINE = Duration.ofMinutes(60);

    /** How long a restarted node's users may take to be back, at most: the bound, twice. */
    private static final Duration RESTART_BACK = Duration.ofSeconds(120);

    private static final Pattern HELD = Pattern.compile("fewest open ([\\d,]+); dropped during the hold ([\\d,]+)");

    private GeneratorFleet() {
    }

    static void run(List<ChildServer> nodes, LoadOptions options, Report report)
            throws IOException, InterruptedException {
        int generators = options.generators();
        Path jar = ownJar();
        List<Process> processes = new ArrayList<>(generators);
        List<Path> logs = new ArrayList<>(generators);
        List<ServerLogins> logins = new ArrayList<>(nodes.size());
        List<ServerLogins.Rate> beforeRestart = null; // each node's logins again, read before the restart
        // With a restart, every generator holds its users until its node restarts or this file exists.
        Path release = options.restartNode() < 0 ? null
                : Files.createTempDirectory("cim-loadgen-fleet-").resolve("restart-over");
        nodes.forEach(node -> logins.add(new ServerLogins(node.managementPort())));
        try {
            for (int i = 0; i < generators; i++) {
                ChildServer node = nodes.get(i % nodes.size());
                int share = shareOf(i, options);
                Path log = Files.createTempFile("cim-loadgen-generator-" + i + "-", ".log");
                List<String> command = new ArrayList<>(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx2g",
                        "-jar", jar.toString(), "--parts=3", "--port=" + node.port(), "--server-pid=" + node.pid(),
                        "--connections=" + share, "--hold=" + options.hold().toSeconds() + "s",
                        "--per-source-address=" + PER_SOURCE_ADDRESS));
                if (release != null) {
                    command.add("--await-restart=" + release);
                }
                processes.add(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                        .start());
                logs.add(log);
            }
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            if (release != null) {
                try {
                    beforeRestart = restart(nodes, options.restartNode(), logins, logs, options, deadline, report);
                } finally {
                    Files.createFile(release); // the generators of the other nodes go on
                }
            }
            for (Process process : processes) {
                if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    throw new IllegalStateException("a generator did not finish within " + DEADLINE + "; see " + logs);
                }
            }
        } finally {
            processes.forEach(Process::destroy);
            logins.forEach(ServerLogins::close);
            if (release != null) {
                Files.deleteIfExists(release);
                Files.deleteIfExists(release.getParent());
            }
        }
        for (int n = 0; n < nodes.size(); n++) {
            ServerLogins.Rate rate = logins.get(n).stop();
            report.add(3, String.format(Locale.ROOT, "node %d, logins again as its server counted them (every %d ms)",
                    n, ServerLogins.EVERY_MILLIS), (beforeRestart != null ? beforeRestart.get(n) : rate).describe(),
                    "≥ 1,000/s");
        }
        long held = 0;
        long dropped = 0;
        int answered = 0;
        for (int i = 0; i < generators; i++) {
            String output = Files.readString(logs.get(i), StandardCharsets.UTF_8);
            String where = String.format(Locale.ROOT, "generator %d, node %d: ", i, i % nodes.size());
            for (String line : output.lines().toList()) {
                if (line.startsWith("| 3 | ")) {
                    String[] cells = line.split(" \\| ", -1);
                    if (cells.length >= 4) {
                        report.add(3, where + cells[1], cells[2], cells[3].replaceAll("\\s*\\|\\s*$", "").strip());
                    }
                    Matcher m = HELD.matcher(line);
                    if (m.find()) {
                        held += Long.parseLong(m.group(1).replace(",", ""));
                        dropped += Long.parseLong(m.group(2).replace(",", ""));
                        answered++;
                    }
                }
            }
            if (processes.get(i).exitValue() != 0) {
                report.note(where + "exited with " + processes.get(i).exitValue() + "; see " + logs.get(i));
            }
        }
        report.add(3, String.format(Locale.ROOT, "%,d connections asked of %d generator processes on %d nodes "
                        + "sharing one Redis, held %d s", options.connections(), generators, nodes.size(),
                        options.hold().toSeconds()),
                String.format(Locale.ROOT, "**%,d held at the fewest** (the generators' fewest open, summed; %d of %d "
                        + "reported); dropped during the hold %,d", held, answered, generators, dropped),
                "100,000 across 6 nodes");
    }

    /** Generator {@code i}'s share of the connections: they are split as evenly as they go. */
    private static int shareOf(int i, LoadOptions options) {
        return options.connections() / options.generators() + (i < options.connections() % options.generators() ? 1 : 0);
    }

    /** Node {@code node}'s users, summed over its generators. */
    private static int usersOf(int node, LoadOptions options) {
        int users = 0;
        for (int i = node; i < options.generators(); i += options.nodes()) {
            users += shareOf(i, options);
        }
        return users;
    }

    /**
     * Once every generator holds its users (its log says {@link ConnectionsPart#AWAITING_RESTART}),
     * restarts the node and reads every node's logins until they have counted all its users back, for
     * at most two minutes.
     *
     * @return each node's logins again, read before the restart; null when there was none
     */
    private static List<ServerLogins.Rate> restart(List<ChildServer> nodes, int node, List<ServerLogins> logins,
            List<Path> logs, LoadOptions options, long deadline, Report report) throws IOException, InterruptedException {
        // Every generator holding its users, logged in again: no other logins are under way.
        List<Path> waiting = new ArrayList<>(logs);
        while (!waiting.isEmpty() && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(100); // polling a condition, with a deadline
            waiting.removeIf(log -> read(log).contains(ConnectionsPart.AWAITING_RESTART));
        }
        if (!waiting.isEmpty()) {
            report.add(3, "node " + node + " restart", "not done: the generators did not all get to hold their users",
                    "all back within 60 s");
            return null;
        }
        List<ServerLogins.Rate> again = new ArrayList<>(nodes.size());
        long[] counted = new long[nodes.size()];
        long held = System.nanoTime();
        for (int n = 0; n < nodes.size(); n++) {
            logins.get(n).awaitReadingAfter(held, held + TimeUnit.SECONDS.toNanos(5)); // the last logins in
        }
        for (int n = 0; n < nodes.size(); n++) {
            again.add(logins.get(n).rate());
            counted[n] = logins.get(n).latest();
        }
        logins.get(node).close(); // the process it reads goes; its successor is read afresh
        int users = usersOf(node, options);
        long stopping = System.nanoTime();
        // Restarted on a thread of its own: its clients may be back on the other nodes before it is.
        CompletableFuture<Void> restarting = CompletableFuture.runAsync(() -> {
            try {
                nodes.get(node).restart();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        ServerLogins successor = null;
        long listening = 0;
        long backAt = 0;
        long back = 0;
        long restarted = 0;
        try {
            long until = stopping + RESTART_BACK.toNanos();
            while (System.nanoTime() < until && (backAt == 0 || successor == null)) {
                if (successor == null && restarting.isDone()) {
                    restarting.join(); // throws if it did not start again
                    listening = System.nanoTime();
                    successor = new ServerLogins(nodes.get(node).managementPort());
                }
                restarted = successor == null ? 0 : Math.max(0, successor.latest());
                back = restarted;
                for (int n = 0; n < nodes.size(); n++) {
                    back += n == node ? 0 : logins.get(n).latest() - counted[n];
                }
                if (backAt == 0 && back >= users) {
                    backAt = System.nanoTime();
                }
                TimeUnit.MILLISECONDS.sleep(ServerLogins.EVERY_MILLIS); // polling a condition, with a deadline
            }
        } catch (CompletionException e) {
            report.add(3, "node " + node + " restart", "the node did not start again: " + e.getCause(),
                    "all back within 60 s");
            return again;
        } finally {
            if (successor != null) {
                successor.close();
            }
        }
        report.add(3, String.format(Locale.ROOT, "node %d restarted (SIGTERM, then the same command) under its %,d "
                        + "logged-in users, the other nodes holding theirs: its users' logins counted by all nodes", node,
                        users),
                backAt == 0
                        ? String.format(Locale.ROOT, "**%,d of %,d back** within %d s of the SIGTERM", back, users,
                                RESTART_BACK.toSeconds())
                        : String.format(Locale.ROOT, "**all %,d back %.1f s after the SIGTERM** (%,d of them on the "
                                + "restarted node when it was read, the rest on the others); the node listened again "
                                + "%s", users, (backAt - stopping) / 1e9, restarted, listening == 0 ? "not within "
                                + RESTART_BACK.toSeconds() + " s" : String.format(Locale.ROOT, "%.1f s after the "
                                + "SIGTERM", (listening - stopping) / 1e9)),
                "all back within 60 s");
        return again;
    }

    private static String read(Path log) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static Path ownJar() {
        try {
            return Path.of(GeneratorFleet.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot find this program's jar: " + e.getMessage(), e);
        }
    }
}
