package dev.cim.loadgen;

import dev.cim.common.schedule.Recurrence;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The load generator's command line, read by picocli ({@code --help} prints it). Options whose
 * default depends on {@code --quick} are read as text and resolved after parsing: an explicit value
 * wins, else the smoke-test default with {@code --quick}, else the full-run default.
 */
@Command(name = "cim-loadgen", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Drives a cim server through the client library and prints one markdown table.",
            "Starts cim-server/target/cim-server.jar as a child process unless --port is given.",
            "Parts: 1 throughput and latency, 2 broadcast fan-out, 3 idle connections,",
            "4 delayed messages (at a time, when online, recurring),",
            "5 groups (fan-out, all online and half offline), history pages and search."},
        footer = {"", "Durations are a whole number and a unit: 500ms, 30s, 2m, 1h.",
            "Quick (smoke-test) defaults are in brackets."})
final class LoadCommand {

    /** In a smoke test, heartbeats every 2 s, so a hold of seconds sees some. */
    private static final String QUICK_IDLE_TIMEOUT = "--cim.server.idle-timeout=6s";

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "the server's host (default: ${DEFAULT-VALUE})")
    String host;

    @Option(names = "--port", defaultValue = "0", description = "the server's port; 0 starts the server jar as a child process")
    int port;

    @Option(names = "--server-jar", defaultValue = "cim-server/target/cim-server.jar",
            description = "the server jar to start (default: ${DEFAULT-VALUE})")
    Path serverJar;

    @Option(names = "--server-heap", defaultValue = "2g", description = "the child server's -Xmx (default: ${DEFAULT-VALUE})")
    String serverHeap;

    @Option(names = "--server-arg", description = "a --name=value for the child server (repeatable)")
    List<String> serverArgs = new ArrayList<>();

    @Option(names = "--server-jvm-arg", description = "a JVM option for the child server and the relay (repeatable)")
    List<String> serverJvmArgs = new ArrayList<>();

    @Option(names = "--server-pid", defaultValue = "0", description = "the pid of an external server, for memory readings")
    long serverPid;

    @Option(names = "--parts", defaultValue = "1,2,3,4,5", split = ",", description = "which parts to run, of 1 to 5 (default: ${DEFAULT-VALUE})")
    List<Integer> parts;

    @Option(names = "--quick", description = "smoke-test defaults: small numbers, seconds per part")
    boolean quick;

    @Option(names = "--users", description = "chat clients of parts 1 and 2 (1000 [100])")
    Integer users;

    @Option(names = "--warmup", description = "part 1: closed-loop traffic before anything counts (30s [1s])")
    String warmup;

    @Option(names = "--duration", description = "part 1: length of each closed-loop run (30s [3s])")
    String duration;

    @Option(names = "--latency-duration", description = "part 1: length of each paced run (10s [2s])")
    String latencyDuration;

    @Option(names = "--rate", defaultValue = "0", description = "part 1: take this as the sustained rate instead of searching")
    int rate;

    @Option(names = "--window", split = ",", description = "part 1: messages in flight of each closed-loop run (2000,5000,10000,20000 [200])")
    List<Integer> windows;

    @Option(names = "--broadcast-rounds", description = "part 2: broadcasts, one after the other (10 [3])")
    Integer broadcastRounds;

    @Option(names = "--connections", description = "part 3: idle connections to hold (15000 [300])")
    Integer connections;

    @Option(names = "--hold", description = "part 3: how long to hold them (30s [3s])")
    String hold;

    @Option(names = "--delayed-far", description = "part 4, first: scheduled messages due 1..400 days ahead, "
            + "for the registration rate, server heap and Redis memory; 0 for none (1000000 [20000])")
    Integer delayedFar;

    @Option(names = "--delayed", description = "part 4, then: scheduled messages due within --delayed-window "
            + "(100000 [2000])")
    Integer delayed;

    @Option(names = "--delayed-window", description = "part 4: the window those fall due within (60s [5s])")
    String delayedWindow;

    @Option(names = "--delayed-burst", description = "part 4, then: scheduled messages due within one second; "
            + "0 for none (100000 [2000])")
    Integer delayedBurst;

    @Option(names = "--delayed-senders", description = "part 4: users that schedule them all (1000 [50])")
    Integer delayedSenders;

    @Option(names = "--delayed-receivers", description = "part 4: users they go to, never senders (100 [10])")
    Integer delayedReceivers;

    @Option(names = "--delayed-disconnect", defaultValue = "0.5", description = "part 4: share of the senders "
            + "that close their client once the near and burst messages are registered (default: ${DEFAULT-VALUE})")
    double delayedDisconnect;

    @Option(names = "--online-messages", description = "part 4, then: 'when online' messages from the "
            + "--delayed-senders to --online-users logged-out users, delivered as they log in; 0 for none "
            + "(100000 [2000])")
    Integer onlineMessages;

    @Option(names = "--online-users", description = "part 4: the users those wait for, each with an account and "
            + "logged out until the logins (10000 [100])")
    Integer onlineUsers;

    @Option(names = "--online-login-window", description = "part 4: those users' logins start evenly within it, "
            + "at most " + ClientPool.MAX_LOGINS_IN_FLIGHT + " at a time (10s [2s])")
    String onlineLoginWindow;

    @Option(names = "--series", description = "part 4, last: recurring messages from the --delayed-senders (several "
            + "each) to the --delayed-receivers, who stay online; 0 for none (10000 [200])")
    Integer series;

    @Option(names = "--series-rule", description = "part 4: how often they recur, a rule as :every reads it, "
            + "e.g. 1m, 30s, weekday 9:00 (1m [5s])")
    String seriesRule;

    @Option(names = "--series-duration", description = "part 4: how long they fire, from the last one's "
            + "registration until all are cancelled (3m [20s])")
    String seriesDuration;

    @Option(names = "--tick", defaultValue = "10ms", description = "the tick of the clients' delay wheel (default: ${DEFAULT-VALUE})")
    String tick;

    @Option(names = "--group-members", description = "part 5: members of the group, all logged in; at most the "
            + "server's cim.server.groups.max-members (1000 [50])")
    Integer groupMembers;

    @Option(names = "--group-rounds", description = "part 5: group messages one after the other, each waiting for "
            + "the last member (100 [10])")
    Integer groupRounds;

    @Option(names = "--group-window", description = "part 5: group messages in flight in the sustained run, a "
            + "closed loop on their POSTED receipts (16 [4])")
    Integer groupWindow;

    @Option(names = "--group-duration", description = "part 5: length of the sustained run (30s [3s])")
    String groupDuration;

    @Option(names = "--group-offline-messages", description = "part 5: group messages sent while half the "
            + "members are offline, then read by them at login (1000 [100])")
    Integer groupOfflineMessages;

    @Option(names = "--history-messages", description = "part 5: messages of the private conversation whose "
            + "history is paged (1000000 [2000])")
    Integer historyMessages;

    @Option(names = "--search-messages", description = "part 5: messages of the conversations searched, "
            + "all together (100000 [2000])")
    Integer searchMessages;

    @Option(names = "--io-threads", defaultValue = "2", description = "threads of the clients' event loop group (default: ${DEFAULT-VALUE})")
    int ioThreads;

    @Option(names = "--epoll", defaultValue = "true", arity = "1", description = "the clients' transport: epoll where it loads, or NIO with false")
    boolean epoll;

    @Option(names = "--per-source-address", defaultValue = "10000", description = "connections per loopback source address 127.0.0.x (default: ${DEFAULT-VALUE})")
    int perSourceAddress;

    @Option(names = "--tls", defaultValue = "off", description = {"off, on (the child server gets a self-signed "
        + "certificate, the clients trust it), or both: part 1 only, a plaintext and a TLS child server, closed-loop "
        + "runs alternating between them, and the ratio (default: ${DEFAULT-VALUE})"})
    String tls;

    @Option(names = {"--rounds", "--tls-rounds"}, description = "--tls=both or --transport=both: rounds, each one "
            + "closed-loop run on each side (4 [2])")
    Integer rounds;

    @Option(names = "--transport", defaultValue = "tcp", description = {"tcp (the chat port), websocket (the child "
        + "server's web port, /ws, binary messages), or both: part 1 only, a TCP and a WebSocket pool on one child "
        + "server, closed-loop runs alternating between them, and the ratio (default: ${DEFAULT-VALUE})"})
    String transport;

    @Option(names = "--against", split = ",", description = {"part 1 only: two of server, relay (a minimal relay "
        + "on the same protocol and transport, with no Redis and no acknowledgement wait), relay-acked (the relay "
        + "answering a send once its recipient acknowledged it), each a child process, mosquitto (Debian's MQTT "
        + "broker through bin/peer-mosquitto, QoS 1 between persistent sessions) and ejabberd (Debian's XMPP "
        + "server through bin/peer-ejabberd, chat messages with stream-management acks): closed-loop runs alternating "
        + "between them, then p50/p99/p99.9 at 8 rates from 5 to 100 %% of the faster one's; ratios are the first's "
        + "over the second's"})
    List<String> against;

    @Option(names = "--peer-script-dir", defaultValue = "bin", description = "--against with mosquitto or ejabberd: "
            + "where the scripts peer-mosquitto and peer-ejabberd are (default: ${DEFAULT-VALUE}, from the project "
            + "directory)")
    Path peerScriptDir;

    @Option(names = "--mqtt-port", defaultValue = "0", description = "--against with mosquitto: the port of a broker "
            + "running already (bin/peer-mosquitto start); 0 has the script start one for the run in a new directory")
    int mqttPort;

    @Option(names = "--mqtt-dir", description = "--mqtt-port: that broker's --dir as given to the script, for its "
            + "pid (default: the script's)")
    Path mqttDir;

    @Option(names = "--xmpp-port", defaultValue = "0", description = "--against with ejabberd: the port of an "
            + "ejabberd running already (bin/peer-ejabberd start), whose users u0.. lacking are registered; 0 has the "
            + "script start one for the run in a new directory, with --users users")
    int xmppPort;

    @Option(names = "--xmpp-dir", description = "--xmpp-port: that ejabberd's --dir as given to the script "
            + "(default: the script's)")
    Path xmppDir;

    @Option(names = "--curve-top", defaultValue = "0", description = "--against: the latency curve's 100 %% in "
            + "msgs/s (default: the faster side's closed-loop rate)")
    int curveTop;

    @Option(names = "--knee-searches", defaultValue = "1", description = "--against: how many times the search for "
            + "the highest rate within p99 ≤ 5 ms runs, the median of the answers counting (default: ${DEFAULT-VALUE})")
    int kneeSearches;

    @Option(names = "--plot", defaultValue = "latency-curve.png", description = "--against: where the latency "
            + "curve's PNG is written (default: ${DEFAULT-VALUE})")
    Path plot;

    @Option(names = "--latency-log", description = "part 1: a directory where each measured paced run writes "
            + "one line per message, <intended send, µs from the run's start> <latency µs> <the generator's lag µs>, "
            + "to see when the slow ones came (default: none)")
    Path latencyLog;

    @Option(names = "--nodes", defaultValue = "1", description = "child servers, each a node, users spread over "
            + "them; more than 1 needs --server-arg=--cim.server.redis.embedded=false and a shared Redis "
            + "(default: ${DEFAULT-VALUE})")
    int nodes;

    @Option(names = "--generators", defaultValue = "1", description = "part 3: split the connections over this "
            + "many processes of this program, each against one of the --nodes in turn (one process may hold "
            + "at most its open-file limit) (default: ${DEFAULT-VALUE})")
    int generators;

    @Option(names = "--restart-node", defaultValue = "-1", description = "part 3 with --generators: restart "
            + "this node (0 up) once its generators have logged their users in again, and measure until all are "
            + "back (default: none)")
    int restartNode;

    @Option(names = "--await-restart", paramLabel = "RELEASE_FILE", description = "part 3 with --port: after the "
            + "logins again, hold the clients until that server restarts under them (then measure until all are "
            + "back), or until RELEASE_FILE exists")
    Path awaitRestart;

    @Option(names = "--cpu-pids", split = ",", description = "other processes (an external Redis) whose CPU per "
            + "message is reported beside the server's")
    List<Long> cpuPids;

    @Option(names = "--tls-trust", description = "--tls=on with --port: a PEM file of the certificates to trust "
            + "(default: the JDK's trust store)")
    Path tlsTrust;

    @Option(names = "--tls-server-name", description = "--tls=on with --port: the name the server's certificate is for")
    String tlsServerName;

    private LoadCommand() {
    }

    /**
     * @throws IllegalArgumentException naming what is wrong, in one line; for {@code --help} and
     *         {@code --version} the usage is printed and null returned
     */
    static LoadOptions parse(String[] args) {
        LoadCommand command = new LoadCommand();
        CommandLine line = new CommandLine(command);
        try {
            line.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(e.getMessage() + " (see --help)");
        }
        if (line.isUsageHelpRequested()) {
            line.usage(System.out);
            return null;
        }
        if (line.isVersionHelpRequested()) {
            line.printVersionHelp(System.out);
            return null;
        }
        return command.options();
    }

    private LoadOptions options() {
        if (curveTop < 0) {
            throw new IllegalArgumentException("--curve-top: " + curveTop + " (expected: msgs/s > 0, or 0 for the "
                    + "faster side's closed-loop rate)");
        }
        if (kneeSearches < 1) {
            throw new IllegalArgumentException("--knee-searches: " + kneeSearches + " (expected: >= 1)");
        }
        List<String> childArgs = new ArrayList<>(serverArgs);
        if (quick && childArgs.stream().noneMatch(a -> a.startsWith("--cim.server.idle-timeout"))) {
            childArgs.add(QUICK_IDLE_TIMEOUT);
        }
        return new LoadOptions(host, port, serverJar, serverHeap, List.copyOf(childArgs), List.copyOf(serverJvmArgs),
                serverPid, new TreeSet<>(parts), quick,
                pick(users, 1000, 100),
                duration("--warmup", warmup, "30s", "1s"),
                duration("--duration", duration, "30s", "3s"),
                duration("--latency-duration", latencyDuration, "10s", "2s"),
                rate,
                windows != null ? List.copyOf(windows) : quick ? List.of(200) : List.of(2000, 5000, 10000, 20000),
                pick(broadcastRounds, 10, 3),
                pick(connections, 15_000, 300),
                duration("--hold", hold, "30s", "3s"),
                pick(delayed, 100_000, 2000),
                pick(delayedSenders, 1000, 50),
                duration("--delayed-window", delayedWindow, "60s", "5s"),
                pick(delayedFar, 1_000_000, 20_000),
                pick(delayedBurst, 100_000, 2000),
                pick(delayedReceivers, 100, 10),
                delayedDisconnect,
                pick(onlineMessages, 100_000, 2000),
                pick(onlineUsers, 10_000, 100),
                duration("--online-login-window", onlineLoginWindow, "10s", "2s"),
                pick(series, 10_000, 200),
                recurrence("--series-rule", seriesRule, "1m", "5s"),
                duration("--series-duration", seriesDuration, "3m", "20s"),
                duration("--tick", tick, "10ms", "10ms"),
                pick(groupMembers, 1000, 50),
                pick(groupRounds, 100, 10),
                pick(groupWindow, 16, 4),
                duration("--group-duration", groupDuration, "30s", "3s"),
                pick(groupOfflineMessages, 1000, 100),
                pick(historyMessages, 1_000_000, 2000),
                pick(searchMessages, 100_000, 2000),
                ioThreads, epoll, perSourceAddress, tlsMode(), pick(rounds, 4, 2), tlsTrust, tlsServerName,
                transportMode(), against == null ? List.of() : against.stream().map(LoadOptions.Against::of).toList(),
                plot, latencyLog, nodes, cpuPids == null ? List.of() : cpuPids, peerScriptDir, mqttPort, mqttDir, xmppPort, xmppDir,
                curveTop, kneeSearches, generators, restartNode, awaitRestart);
    }

    private LoadOptions.TlsMode tlsMode() {
        try {
            return LoadOptions.TlsMode.valueOf(tls.strip().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--tls: '" + tls + "' (expected: off, on or both)");
        }
    }

    private LoadOptions.TransportMode transportMode() {
        try {
            return LoadOptions.TransportMode.valueOf(transport.strip().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--transport: '" + transport + "' (expected: tcp, websocket or both)");
        }
    }

    private int pick(Integer given, int full, int smoke) {
        return given != null ? given : quick ? smoke : full;
    }

    private Recurrence recurrence(String name, String given, String full, String smoke) {
        String value = given != null ? given : quick ? smoke : full;
        try {
            return Recurrence.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage());
        }
    }

    private Duration duration(String name, String given, String full, String smoke) {
        String value = given != null ? given : quick ? smoke : full;
        Duration parsed;
        try {
            parsed = Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage());
        }
        if (parsed.isNegative() || parsed.isZero()) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: > 0, e.g. 30s)");
        }
        return parsed;
    }
}
