package dev.cim.loadgen;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The settings of one load run, from {@code --name=value} arguments. Every setting has a full-run
 * default (the targets of issue 4) and a {@code --quick} default (a smoke test of a few seconds per
 * part); an explicit argument wins over both.
 *
 * @param host             the server's host; with {@code port} 0 a child server is started instead
 * @param port             the server's port, or 0 to start the server jar as a child process
 * @param serverJar        the server jar to start
 * @param serverHeap       the child server's {@code -Xmx}
 * @param serverArgs       extra {@code --name=value} arguments for the child server
 *                         ({@code --server-arg=--cim.server.worker-threads=8}, repeatable); with
 *                         {@code --quick}, {@code --cim.server.idle-timeout=6s} unless given
 * @param serverJvmArgs    extra JVM options for the child server ({@code --server-jvm-arg=-XX:+UseZGC},
 *                         repeatable)
 * @param serverPid        the pid of an external server, for memory readings; 0 when unknown
 * @param parts            which parts to run, of 1 to 4
 * @param quick            true for the smoke-test defaults
 * @param users            chat clients for parts 1, 2 and 4 (part 2 broadcasts to all of them)
 * @param warmup           part 1: closed-loop traffic before anything is measured, so that the JIT
 *                         of both JVMs has compiled the chat path (on 2 cores that takes tens of
 *                         seconds, during which the compiler threads take a core)
 * @param duration         part 1: length of each closed-loop run; the best of them is the sustained rate
 * @param latencyDuration  part 1: length of each paced run at 25, 50 and 100 % of that rate
 * @param rate             part 1: when above 0, no closed-loop search: the latency runs take this
 *                         as the sustained rate (for repeating or profiling a latency run)
 * @param windows          part 1: the messages in flight of each closed-loop run, tried in turn
 * @param broadcastRounds  part 2: broadcasts sent, one after the other
 * @param connections      part 3: idle connections to hold
 * @param hold             part 3: how long to hold them, heartbeats running
 * @param delayed          part 4: delayed messages
 * @param delayedSenders   part 4: users that send them (at most {@code users})
 * @param delayedWindow    part 4: the window within which all of them fall due
 * @param tick             part 4: the tick of the generator's delay wheel
 * @param ioThreads        threads of the one client event loop group
 * @param epoll            the clients' transport: Linux epoll where it loads, or Java NIO when false
 * @param perSourceAddress connections per loopback source address (127.0.0.x) before the next
 */
record LoadOptions(String host, int port, Path serverJar, String serverHeap, List<String> serverArgs,
        List<String> serverJvmArgs, long serverPid, Set<Integer> parts, boolean quick, int users,
        Duration warmup, Duration duration, Duration latencyDuration, int rate, List<Integer> windows,
        int broadcastRounds, int connections, Duration hold, int delayed, int delayedSenders,
        Duration delayedWindow, Duration tick, int ioThreads, boolean epoll, int perSourceAddress) {

    LoadOptions {
        if (parts.isEmpty() || !Set.of(1, 2, 3, 4).containsAll(parts)) {
            throw new IllegalArgumentException("--parts: " + parts + " (expected: some of 1,2,3,4)");
        }
        if (users < 2 || delayedSenders < 1 || delayedSenders > users) {
            throw new IllegalArgumentException("--users: " + users + ", --delayed-senders: " + delayedSenders
                    + " (expected: users >= 2 and 1 <= delayed-senders <= users)");
        }
        if (rate < 0) {
            throw new IllegalArgumentException("--rate: " + rate + " (expected: >= 0, 0 to find it)");
        }
        if (windows.isEmpty() || windows.stream().anyMatch(w -> w < 1) || broadcastRounds < 1 || connections < 1
                || delayed < 1 || ioThreads < 1 || perSourceAddress < 1) {
            throw new IllegalArgumentException("--window, --broadcast-rounds, --connections, --delayed, "
                    + "--io-threads and --per-source-address (expected: each >= 1)");
        }
    }

    /** True when the generator starts the server itself. */
    boolean childServer() {
        return port == 0;
    }

    /**
     * Reads {@code --name=value} arguments; durations as {@code 500ms}, {@code 30s}, {@code 2m}.
     *
     * @throws IllegalArgumentException naming an unknown or malformed argument
     */
    static LoadOptions parse(String[] args) {
        Map<String, String> given = new HashMap<>();
        List<String> serverArgs = new ArrayList<>();
        List<String> serverJvmArgs = new ArrayList<>();
        for (String arg : args) {
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("argument '" + arg + "' (expected: --name=value)");
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
            String value = eq < 0 ? "true" : arg.substring(eq + 1);
            if (name.equals("server-arg")) {
                serverArgs.add(value);
            } else if (name.equals("server-jvm-arg")) {
                serverJvmArgs.add(value);
            } else if (!KNOWN.contains(name)) {
                throw new IllegalArgumentException("unknown argument --" + name + " (expected one of " + KNOWN + ")");
            } else {
                given.put(name, value);
            }
        }
        boolean quick = Boolean.parseBoolean(given.getOrDefault("quick", "false"));
        Defaults d = new Defaults(given, quick);
        return new LoadOptions(
                given.getOrDefault("host", "127.0.0.1"),
                d.integer("port", 0, 0),
                Path.of(given.getOrDefault("server-jar", "cim-server/target/cim-server.jar")),
                given.getOrDefault("server-heap", "2g"),
                List.copyOf(quick && serverArgs.stream().noneMatch(a -> a.startsWith("--cim.server.idle-timeout"))
                        ? concat(serverArgs, QUICK_IDLE_TIMEOUT) : serverArgs),
                List.copyOf(serverJvmArgs),
                Long.parseLong(given.getOrDefault("server-pid", "0")),
                new TreeSet<>(d.integers("parts", "1,2,3,4", "1,2,3,4")),
                quick,
                d.integer("users", 1000, 100),
                d.duration("warmup", "30s", "1s"),
                d.duration("duration", "30s", "3s"),
                d.duration("latency-duration", "10s", "2s"),
                d.integer("rate", 0, 0),
                d.integers("window", "2000,5000,10000,20000", "200"),
                d.integer("broadcast-rounds", 10, 3),
                d.integer("connections", 15_000, 300),
                d.duration("hold", "30s", "3s"),
                d.integer("delayed", 100_000, 2000),
                d.integer("delayed-senders", 1000, 50),
                d.duration("delayed-window", "60s", "5s"),
                d.duration("tick", "10ms", "10ms"),
                d.integer("io-threads", 2, 2),
                Boolean.parseBoolean(given.getOrDefault("epoll", "true")),
                d.integer("per-source-address", 10_000, 10_000));
    }

    private static final Set<String> KNOWN = new TreeSet<>(Set.of("host", "port", "server-jar", "server-heap",
            "server-pid", "parts", "quick", "users", "warmup", "duration", "latency-duration", "rate", "window",
            "broadcast-rounds", "connections", "hold", "delayed", "delayed-senders", "delayed-window", "tick", "io-threads", "epoll",
            "per-source-address"));

    /** In a smoke test, heartbeats every 2 s, so a hold of seconds sees some. */
    private static final String QUICK_IDLE_TIMEOUT = "--cim.server.idle-timeout=6s";

    private static List<String> concat(List<String> list, String more) {
        List<String> all = new ArrayList<>(list);
        all.add(more);
        return all;
    }

    /** Picks the given value, else the quick or the full default. */
    private record Defaults(Map<String, String> given, boolean quick) {

        int integer(String name, int full, int smoke) {
            String value = given.get(name);
            try {
                return value == null ? (quick ? smoke : full) : Integer.parseInt(value.replace("_", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--" + name + ": '" + value + "' (expected: a whole number)");
            }
        }

        List<Integer> integers(String name, String full, String smoke) {
            String value = given.getOrDefault(name, quick ? smoke : full);
            List<Integer> list = new ArrayList<>();
            try {
                for (String item : value.split(",")) {
                    list.add(Integer.parseInt(item.trim().replace("_", "")));
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--" + name + ": '" + value
                        + "' (expected: whole numbers separated by commas)");
            }
            return List.copyOf(list);
        }

        Duration duration(String name, String full, String smoke) {
            String value = given.getOrDefault(name, quick ? smoke : full);
            Duration parsed;
            try {
                parsed = Durations.parse(value);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--" + name + ": " + e.getMessage());
            }
            if (parsed.isNegative() || parsed.isZero()) {
                throw new IllegalArgumentException("--" + name + ": " + value + " (expected: > 0, e.g. 30s)");
            }
            return parsed;
        }
    }
}
