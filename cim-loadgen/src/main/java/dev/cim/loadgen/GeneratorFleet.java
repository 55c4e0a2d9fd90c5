package dev.cim.loadgen;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * again. A node restart is not measured here (a generator restarts only a server of its own).
 */
final class GeneratorFleet {

    /** Connections each generator binds from one loopback source address. */
    static final int PER_SOURCE_ADDRESS = 1000;
    /** How long the fleet may take, at most: logins, the hold, the logins again. */
    private static final Duration DEADLINE = Duration.ofMinutes(60);

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
        nodes.forEach(node -> logins.add(new ServerLogins(node.managementPort())));
        try {
            for (int i = 0; i < generators; i++) {
                ChildServer node = nodes.get(i % nodes.size());
                int share = options.connections() / generators + (i < options.connections() % generators ? 1 : 0);
                Path log = Files.createTempFile("cim-loadgen-generator-" + i + "-", ".log");
                List<String> command = List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx2g",
                        "-jar", jar.toString(), "--parts=3", "--port=" + node.port(), "--server-pid=" + node.pid(),
                        "--connections=" + share, "--hold=" + options.hold().toSeconds() + "s",
                        "--per-source-address=" + PER_SOURCE_ADDRESS);
                processes.add(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                        .start());
                logs.add(log);
            }
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            for (Process process : processes) {
                if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    throw new IllegalStateException("a generator did not finish within " + DEADLINE + "; see " + logs);
                }
            }
        } finally {
            processes.forEach(Process::destroy);
            logins.forEach(ServerLogins::close);
        }
        for (int n = 0; n < nodes.size(); n++) {
            report.add(3, String.format(Locale.ROOT, "node %d, logins again as its server counted them (every %d ms)",
                    n, ServerLogins.EVERY_MILLIS), logins.get(n).stop().describe(), "≥ 1,000/s");
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

    private static Path ownJar() {
        try {
            return Path.of(GeneratorFleet.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot find this program's jar: " + e.getMessage(), e);
        }
    }
}
