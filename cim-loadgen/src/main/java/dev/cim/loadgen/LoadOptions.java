package dev.cim.loadgen;

import dev.cim.common.schedule.Recurrence;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The settings of one load run, read by {@link LoadCommand} from the command line. Every setting
 * has a full-run default and a {@code --quick} default (a smoke test of a few seconds per part); an
 * explicit argument wins over both.
 *
 * @param host             the server's host; with {@code port} 0 a child server is started instead
 * @param port             the server's port, or 0 to start the server jar as a child process
 * @param serverJar        the server jar to start
 * @param serverHeap       the child server's {@code -Xmx}
 * @param serverArgs       extra {@code --name=value} arguments for the child server
 *                         ({@code --server-arg=--cim.server.worker-threads=8}, repeatable); with
 *                         {@code --quick}, {@code --cim.server.idle-timeout=6s} unless given
 * @param serverJvmArgs    extra JVM options for the child server and the relay
 *                         ({@code --server-jvm-arg=-XX:+UseZGC}, repeatable)
 * @param serverPid        the pid of an external server, for memory readings; 0 when unknown
 * @param parts            which parts to run, of 1 to 5
 * @param quick            true for the smoke-test defaults
 * @param users            chat clients for parts 1 and 2 (part 2 broadcasts to all of them)
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
 * @param delayed          part 4: near delayed messages, due within {@code delayedWindow}
 * @param delayedSenders   part 4: users that schedule every part-4 message
 * @param delayedWindow    part 4: the window within which the near messages fall due
 * @param delayedFar       part 4: far-future messages (due 1..400 days ahead) scheduled first, for
 *                         the registration rate, the server's heap and Redis' memory; 0 for none
 * @param delayedBurst     part 4: messages due within one second, after the near window; 0 for none
 * @param delayedReceivers part 4: users the messages go to, never senders, connected throughout
 * @param delayedDisconnect part 4: the share of the senders, 0 to 1, that close their client once
 *                         their near and burst messages are registered, leaving them to the server
 * @param onlineMessages   part 4, after those: "when online" messages ({@code When.online()}) from
 *                         {@code delayedSenders} senders to {@code onlineUsers} users who are logged
 *                         out, spread evenly, then delivered as they log in; 0 for none
 * @param onlineUsers      part 4: the users those wait for, each logged in once (an account) and
 *                         out again before they are scheduled
 * @param onlineLoginWindow part 4: the window those users' logins are started evenly within (at most
 *                         {@link ClientPool#MAX_LOGINS_IN_FLIGHT} at a time)
 * @param series           part 4, last: recurring messages ({@code When.every(seriesRule)}) from
 *                         {@code delayedSenders} senders (several each) to {@code delayedReceivers}
 *                         receivers who stay online, cancelled after {@code seriesDuration}; 0 for none
 * @param seriesRule       part 4: the series' rule ({@code 1m}; any rule of {@code Recurrence})
 * @param seriesDuration   part 4: how long the series fire, from the last one's registration to the
 *                         cancels: a few of the rule's occurrences
 * @param tick             part 4: the tick of the generator's delay wheel
 * @param groupMembers     part 5: members of the group, all logged in (the server's default
 *                         {@code cim.server.groups.max-members} is 1000)
 * @param groupRounds      part 5: group messages sent one after the other, each waiting for its
 *                         last delivery, for the time to the last member
 * @param groupWindow      part 5: group messages in flight in the sustained run (a closed loop on
 *                         their {@code POSTED} receipts), from as many members
 * @param groupDuration    part 5: length of the sustained run
 * @param groupOfflineMessages part 5: group messages sent while half the members are offline (the
 *                         Redis memory per message, then their catch-up at login)
 * @param historyMessages  part 5: messages of the one private conversation whose history is paged
 * @param searchMessages   part 5: messages of the conversations searched, over all of them
 * @param ioThreads        threads of the one client event loop group
 * @param epoll            the clients' transport: Linux epoll where it loads, or Java NIO when false
 * @param perSourceAddress connections per loopback source address (127.0.0.x) before the next
 * @param tls              plaintext, TLS, or both compared (part 1 only)
 * @param rounds           {@code --tls=both} or {@code --transport=both}: rounds, each a
 *                         closed-loop run on each side
 * @param tlsTrust         {@code --tls=on} against an external server: the certificates to trust,
 *                         or null for the JDK's trust store
 * @param tlsServerName    {@code --tls=on} against an external server: the name its certificate is
 *                         for, or null for the host
 * @param transport        the clients' connections: TCP to the chat port, WebSocket to the web
 *                         port's {@code /ws} (a child server only), or both compared (part 1 only)
 * @param against          empty, or two sides compared in part 1 (closed loop and latency curve),
 *                         the first measured against the second: the server, the minimal relay
 *                         (answering on hand-over or on the recipient's ack), mosquitto or ejabberd
 * @param plot             {@code against}: where the latency curve's PNG goes
 * @param latencyLog       part 1: a directory where each measured paced run writes its messages'
 *                         times ({@link MessageLog}), or null
 * @param nodes            child servers, each its own node; users are spread over them by index, so
 *                         a random pair is on two nodes with probability (nodes - 1) / nodes. More
 *                         than one needs a Redis they share ({@code --server-arg}s for an external
 *                         Redis or a cluster)
 * @param cpuPids          other processes whose CPU per message is reported beside the server's (the
 *                         Redis processes of an external Redis or cluster)
 * @param peerScriptDir    {@code against} with mosquitto or ejabberd: where {@code peer-mosquitto} and
 *                         {@code peer-ejabberd} are, the scripts that install, start and stop those
 *                         servers and know their pids
 * @param mqttPort         {@code against} with mosquitto: the port of a broker already running (as
 *                         the script started it), or 0 to have the script start one for the run
 * @param mqttDir          {@code mqttPort}: that broker's directory as given to the script (for its
 *                         pid), or null for the script's default
 * @param xmppPort         {@code against} with ejabberd: the port of an ejabberd already running (as
 *                         {@code peer-ejabberd} started it; the users it lacks are registered), or 0
 *                         to have the script start one for the run
 * @param xmppDir          {@code xmppPort}: that ejabberd's directory as given to the script, or null
 *                         for the script's default
 * @param curveTop         {@code against}: the latency curve's 100 % in msgs/s, or 0 for the faster
 *                         side's closed-loop rate (a peer far slower than the server would sustain
 *                         none of the server's points)
 * @param kneeSearches     {@code against}: how many times the search for the highest rate within
 *                         p99 ≤ 5 ms runs after the curve, the median of the answers counting
 * @param generators       part 3 alone: processes of this program the connections are split over,
 *                         each against one child server in turn ({@link GeneratorFleet}); 1 holds
 *                         them all here
 * @param restartNode      {@code generators}: the node (0 up) restarted once its generators have
 *                         logged their users in again, with the time until all are back; -1 for none
 * @param awaitRestart     part 3 against a server of one's own ({@code port}): after the logins again,
 *                         hold the clients until that server restarts under them (then measure until
 *                         all are back) or until this file exists (then say how many were held), or
 *                         null for neither: what a fleet that restarts a node tells its generators
 */
record LoadOptions(String host, int port, Path serverJar, String serverHeap, List<String> serverArgs,
        List<String> serverJvmArgs, long serverPid, Set<Integer> parts, boolean quick, int users,
        Duration warmup, Duration duration, Duration latencyDuration, int rate, List<Integer> windows,
        int broadcastRounds, int connections, Duration hold, int delayed, int delayedSenders,
        Duration delayedWindow, int delayedFar, int delayedBurst, int delayedReceivers, double delayedDisconnect,
        int onlineMessages, int onlineUsers, Duration onlineLoginWindow, int series, Recurrence seriesRule,
        Duration seriesDuration, Duration tick, int groupMembers, int groupRounds, int groupWindow,
        Duration groupDuration, int groupOfflineMessages, int historyMessages, int searchMessages, int ioThreads,
        boolean epoll, int perSourceAddress, TlsMode tls, int rounds, Path tlsTrust, String tlsServerName, TransportMode transport,
        List<Against> against, Path plot, Path latencyLog, int nodes, List<Long> cpuPids, Path peerScriptDir, int mqttPort,
        Path mqttDir, int xmppPort, Path xmppDir, int curveTop, int kneeSearches, int generators, int restartNode,
        Path awaitRestart) {

    /** Whether the chat connections speak TLS. */
    enum TlsMode {
        /** Plaintext (loopback). */
        OFF,
        /** TLS on every connection. */
        ON,
        /** Part 1 only: a plaintext and a TLS server, runs alternating between them. */
        BOTH
    }

    /** What the clients connect over. */
    enum TransportMode {
        /** The chat port: length-prefixed Protocol Buffers over TCP. */
        TCP,
        /** The web port's {@code /ws}: one binary WebSocket message per envelope (subprotocol {@code cim.proto}). */
        WEBSOCKET,
        /** Part 1 only: a TCP and a WebSocket pool on one child server, runs alternating between them. */
        BOTH
    }

    /** What part 1 can run against when comparing ({@code --against}). */
    enum Against {
        /** The cim server jar, as a child process with its embedded Redis. */
        SERVER("server"),
        /** The minimal relay ({@code dev.cim.loadgen.relay.BareRelay}), answering a send on hand-over. */
        RELAY("relay"),
        /** The minimal relay answering a send once its recipient acknowledged it. */
        RELAY_ACKED("relay-acked"),
        /**
         * Debian's mosquitto, an MQTT broker, through {@code bin/peer-mosquitto}: the same traffic
         * as MQTT QoS 1 messages between persistent sessions ({@code dev.cim.loadgen.peer}).
         */
        MOSQUITTO("mosquitto"),
        /**
         * Debian's ejabberd, an XMPP server, through {@code bin/peer-ejabberd}: the same traffic as
         * chat messages between users with stream management ({@code dev.cim.loadgen.peer.xmpp}).
         */
        EJABBERD("ejabberd");

        private final String label;

        Against(String label) {
            this.label = label;
        }

        String label() {
            return label;
        }

        static Against of(String label) {
            for (Against side : values()) {
                if (side.label.equals(label.strip())) {
                    return side;
                }
            }
            throw new IllegalArgumentException("--against: '" + label + "' (expected: server, relay, relay-acked, mosquitto or ejabberd)");
        }
    }

    LoadOptions {
        if (parts.isEmpty() || !Set.of(1, 2, 3, 4, 5).containsAll(parts)) {
            throw new IllegalArgumentException("--parts: " + parts + " (expected: some of 1,2,3,4,5)");
        }
        if (users < 2) {
            throw new IllegalArgumentException("--users: " + users + " (expected: >= 2)");
        }
        if (delayedSenders < 1 || delayedReceivers < 1) {
            throw new IllegalArgumentException("--delayed-senders: " + delayedSenders + ", --delayed-receivers: "
                    + delayedReceivers + " (expected: each >= 1)");
        }
        if (delayed < 0 || delayedFar < 0 || delayedBurst < 0 || onlineMessages < 0 || series < 0
                || (long) delayed + delayedFar + delayedBurst + onlineMessages + series < 1
                || (long) delayed + delayedBurst > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--delayed: " + delayed + ", --delayed-far: " + delayedFar
                    + ", --delayed-burst: " + delayedBurst + ", --online-messages: " + onlineMessages + ", --series: "
                    + series + " (expected: each >= 0, not all 0)");
        }
        if (onlineUsers < 1) {
            throw new IllegalArgumentException("--online-users: " + onlineUsers + " (expected: >= 1)");
        }
        if (!(delayedDisconnect >= 0 && delayedDisconnect <= 1)) {
            throw new IllegalArgumentException("--delayed-disconnect: " + delayedDisconnect
                    + " (expected: a share from 0 to 1, e.g. 0.5)");
        }
        if (rate < 0) {
            throw new IllegalArgumentException("--rate: " + rate + " (expected: >= 0, 0 to find it)");
        }
        if (windows.isEmpty() || windows.stream().anyMatch(w -> w < 1) || broadcastRounds < 1 || connections < 1
                || ioThreads < 1 || perSourceAddress < 1) {
            throw new IllegalArgumentException("--window, --broadcast-rounds, --connections, "
                    + "--io-threads and --per-source-address (expected: each >= 1)");
        }
        if (tls == TlsMode.BOTH && (port != 0 || !parts.equals(Set.of(1)))) {
            throw new IllegalArgumentException("--tls=both compares part 1 on two child servers (expected: --parts=1 "
                    + "and no --port)");
        }
        if (groupMembers < 3) {
            throw new IllegalArgumentException("--group-members: " + groupMembers
                    + " (expected: >= 3, a sender and a member on each side when half go offline)");
        }
        if (groupRounds < 1 || groupWindow < 1 || groupOfflineMessages < 1 || historyMessages < 1) {
            throw new IllegalArgumentException("--group-rounds: " + groupRounds + ", --group-window: " + groupWindow
                    + ", --group-offline-messages: " + groupOfflineMessages + ", --history-messages: "
                    + historyMessages + " (expected: each >= 1)");
        }
        if (searchMessages < HistoryPart.MIN_SEARCH_MESSAGES) {
            throw new IllegalArgumentException("--search-messages: " + searchMessages + " (expected: >= "
                    + HistoryPart.MIN_SEARCH_MESSAGES + ", some in each conversation searched)");
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds: " + rounds + " (expected: >= 1)");
        }
        if (transport != TransportMode.TCP && port != 0) {
            throw new IllegalArgumentException("--transport=" + transport.name().toLowerCase(java.util.Locale.ROOT)
                    + " needs the child server, whose web port the generator knows (expected: no --port)");
        }
        if (transport == TransportMode.BOTH && (!parts.equals(Set.of(1)) || tls == TlsMode.BOTH)) {
            throw new IllegalArgumentException("--transport=both compares part 1 over TCP and WebSocket on one child "
                    + "server (expected: --parts=1 and not --tls=both)");
        }
        against = List.copyOf(against);
        if (!against.isEmpty() && (against.size() != 2 || against.get(0) == against.get(1))) {
            throw new IllegalArgumentException("--against: " + against.stream().map(Against::label).toList()
                    + " (expected: two different sides, e.g. --against=server,relay)");
        }
        if (!against.isEmpty() && (!parts.equals(Set.of(1)) || port != 0 || tls != TlsMode.OFF
                || transport != TransportMode.TCP)) {
            throw new IllegalArgumentException("--against compares part 1 on child processes over plaintext TCP "
                    + "(expected: --parts=1, no --port, --tls=off, --transport=tcp)");
        }
        if (nodes < 1) {
            throw new IllegalArgumentException("--nodes: " + nodes + " (expected: >= 1)");
        }
        if (nodes > 1 && (port != 0 || !against.isEmpty() || tls == TlsMode.BOTH || transport == TransportMode.BOTH
                || serverArgs.stream().noneMatch(a -> a.startsWith("--cim.server.redis.embedded=false")))) {
            throw new IllegalArgumentException("--nodes=" + nodes + " starts that many child servers on one shared "
                    + "Redis (expected: no --port, --against, --tls=both or --transport=both, and "
                    + "--server-arg=--cim.server.redis.embedded=false with that Redis's settings)");
        }
        if (generators < 1) {
            throw new IllegalArgumentException("--generators: " + generators + " (expected: >= 1)");
        }
        if (generators > 1 && (!parts.equals(Set.of(3)) || port != 0 || tls != TlsMode.OFF
                || transport != TransportMode.TCP)) {
            throw new IllegalArgumentException("--generators=" + generators + " splits part 3 over processes "
                    + "against child servers (expected: --parts=3, no --port, --tls=off, --transport=tcp)");
        }
        if (restartNode < -1 || restartNode >= nodes || (restartNode >= 0 && generators < 2)) {
            throw new IllegalArgumentException("--restart-node=" + restartNode + " (expected: a node of 0 to "
                    + (nodes - 1) + " with --generators of 2 or more, or -1 for none)");
        }
        if (awaitRestart != null && (port == 0 || !parts.contains(3))) {
            throw new IllegalArgumentException("--await-restart waits for a server of one's own to restart "
                    + "(expected: with --port and part 3)");
        }
        cpuPids = List.copyOf(cpuPids);
        checkPeer("mqtt", mqttPort, mqttDir, Against.MOSQUITTO, against);
        checkPeer("xmpp", xmppPort, xmppDir, Against.EJABBERD, against);
        if ((tlsTrust != null || tlsServerName != null) && (tls != TlsMode.ON || port == 0)) {
            throw new IllegalArgumentException("--tls-trust and --tls-server-name are for --tls=on against an "
                    + "external server (expected: with --tls=on and --port)");
        }
    }

    /**
     * The options {@code --<prefix>-port} and {@code --<prefix>-dir} of the peer server of
     * {@code side}: a running one's port and directory, or no port to start one.
     */
    private static void checkPeer(String prefix, int port, Path dir, Against side, List<Against> against) {
        String name = side.label();
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--" + prefix + "-port: " + port + " (expected: 1 to 65535, or 0 to start "
                    + name + ")");
        }
        if ((port != 0 || dir != null) && !against.contains(side)) {
            throw new IllegalArgumentException("--" + prefix + "-port and --" + prefix + "-dir are for --against with "
                    + name + " (expected: --against=server," + name + " or the like)");
        }
        if (dir != null && port == 0) {
            throw new IllegalArgumentException("--" + prefix + "-dir: " + dir + " is the directory of a running " + name
                    + " (expected: with its --" + prefix + "-port)");
        }
    }

    /**
     * Where a measured paced run of {@code name} at {@code rate} writes its {@link MessageLog}
     * ({@code <name>-<rate>.txt} in {@code --latency-log}), or null when there is none.
     */
    Path latencyLogFile(String name, double rate) {
        return latencyLog == null ? null : latencyLog.resolve(name + "-" + Math.round(rate) + ".txt");
    }

    /** True when the generator starts the server itself. */
    boolean childServer() {
        return port == 0;
    }

    /**
     * Reads the command line (see {@link LoadCommand} for every option, or run with {@code --help}).
     *
     * @throws IllegalArgumentException naming an unknown or malformed argument, in one line
     */
    static LoadOptions parse(String[] args) {
        return LoadCommand.parse(args);
    }
}
