package dev.cim.loadgen;

import dev.cim.client.core.ClientTls;
import dev.cim.common.net.NettyTransport;
import dev.cim.common.tls.TlsProvider;
import dev.cim.common.wheel.DelayScheduler;
import dev.cim.loadgen.peer.MosquittoBroker;
import dev.cim.loadgen.peer.MqttClientPool;
import dev.cim.loadgen.peer.PeerServer;
import dev.cim.loadgen.peer.xmpp.PeerEjabberd;
import dev.cim.loadgen.peer.xmpp.XmppEndpoint;
import dev.cim.loadgen.peer.xmpp.XmppPool;
import dev.cim.testkit.Ports;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The load generator for the chat path: many clients of the client library ({@code CimClient},
 * one login each, the real protocol) against one cim server, printing one markdown table.
 *
 * <h3>Usage</h3>
 * <pre>
 * java -jar cim-loadgen/target/cim-loadgen.jar                 # full run, starts the server jar itself
 * java -jar cim-loadgen/target/cim-loadgen.jar --quick         # smoke test: small N, seconds per part
 * java -jar cim-loadgen/target/cim-loadgen.jar --parts=1,3 --host=127.0.0.1 --port=9000 --server-pid=1234
 * </pre>
 * Run it from the project directory (or give {@code --server-jar}). All settings: {@link LoadOptions}.
 *
 * <h3>Parts</h3>
 * <ol>
 *   <li>{@link ThroughputPart}: sustained private-message rate with nothing lost, then latency at
 *       25/50/100 % of it;</li>
 *   <li>{@link BroadcastPart}: time until the last of the users receives a broadcast;</li>
 *   <li>{@link ConnectionsPart}: idle logged-in connections held, server heap and RSS per connection;</li>
 *   <li>{@link DelayedPart}: scheduled messages that outlive their senders: a million far-future
 *       ones (registration rate, server heap, Redis memory), then near and same-second ones, half
 *       of their senders gone (lateness by who sent them, loss, duplication); then
 *       {@link OnlineWaitsPhase}, "when online" messages for logged-out users who then log in
 *       together (login → delivery, loss, Redis memory per message), and {@link SeriesPhase},
 *       recurring messages firing for minutes, then cancelled (lateness, loss, duplication, Redis
 *       memory per series, nothing after the cancel);</li>
 *   <li>groups, history and search: {@link GroupsPart}, fan-out to a group of {@code --group-members}
 *       (time until the last member has a message, all online and half offline; deliveries per
 *       second; Redis bytes per group message; the offline half's catch-up from the group's log),
 *       then {@link HistoryPart}, a page of 50 at random depths of a {@code --history-messages}
 *       conversation and a search over {@code --search-messages} messages.</li>
 * </ol>
 * Parts 1 and 2 share one pool of {@code --users} chat clients; part 4 opens its senders and
 * receivers once that has closed (and each of its later phases users of its own), part 5 its
 * members and then its history users after that, and part 3 its idle pool last. Parts run in the
 * order 1, 2, 4, 5, 3. Every client shares one event loop group of {@code --io-threads} threads, of
 * the {@link NettyTransport} picked by {@code --epoll}. The generator stops by itself; a child
 * server is stopped on exit.
 *
 * <p>{@code --tls=both}, {@code --transport=both} and {@code --against=A,B} compare part 1 on two
 * sides instead ({@link ComparisonPart}); {@code --against} measures the server against a minimal
 * relay of the generator's own ({@code dev.cim.loadgen.relay.BareRelay}) or against Debian's
 * mosquitto (MQTT QoS 1, {@code dev.cim.loadgen.peer}) or ejabberd (XMPP with stream management,
 * {@code dev.cim.loadgen.peer.xmpp}), with the latency curve ({@link LatencyCurve}) after the closed
 * loop.
 */
public final class LoadGenerator {

    private LoadGenerator() {
    }

    public static void main(String[] args) throws Exception {
        LoadOptions options;
        try {
            options = LoadOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("cim-loadgen: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (options == null) {
            return; // --help or --version, printed
        }
        int status = run(options);
        // Daemon-less Netty and wheel threads are all stopped by now; exit anyway so nothing lingers.
        System.exit(status);
    }

    private static int run(LoadOptions options) throws Exception {
        if (!options.against().isEmpty()) {
            return compareAgainst(options);
        }
        if (options.tls() == LoadOptions.TlsMode.BOTH) {
            return compareTls(options);
        }
        if (options.transport() == LoadOptions.TransportMode.BOTH) {
            return compareTransports(options);
        }
        boolean tls = options.tls() == LoadOptions.TlsMode.ON;
        boolean webSocket = options.transport() == LoadOptions.TransportMode.WEBSOCKET;
        List<ChildServer> children = new ArrayList<>();
        try {
            for (int node = 0; options.childServer() && node < options.nodes(); node++) {
                List<String> args = new ArrayList<>(options.serverArgs());
                if (options.nodes() > 1) {
                    args.add("--cim.server.node-id=loadgen-" + node);
                }
                children.add(ChildServer.start(options.serverJar(), options.serverHeap(), options.serverJvmArgs(),
                        args, tls));
            }
        } catch (IOException | RuntimeException e) {
            children.forEach(ChildServer::close);
            throw e;
        }
        if (options.generators() > 1) {
            Report fleet = new Report();
            try {
                progress("part 3: " + options.connections() + " connections from " + options.generators()
                        + " generator processes");
                GeneratorFleet.run(children, options, fleet);
            } finally {
                children.forEach(ChildServer::close);
            }
            System.out.println(fleet.render("cim load run, part 3 from " + options.generators() + " processes",
                    children.stream().map(LoadGenerator::describe).collect(java.util.stream.Collectors.joining("; ")),
                    Report.command()));
            return 0;
        }
        ChildServer child = children.isEmpty() ? null : children.get(0);
        String serverDescription = child != null
                ? children.stream().map(LoadGenerator::describe).collect(java.util.stream.Collectors.joining("; "))
                : "external at " + options.host() + ":" + options.port() + (options.serverPid() > 0
                        ? ", pid " + options.serverPid() : ", pid unknown (no memory readings)");
        ClientTls clientTls = null;
        if (tls) {
            clientTls = ClientTls.create(child != null ? child.trust() : options.tlsTrust(), TlsProvider.AUTO);
            if (options.tlsServerName() != null) {
                clientTls = clientTls.serverName(options.tlsServerName());
            }
        }
        int port = child == null ? options.port() : webSocket ? child.webPort() : child.port();
        long serverPid = child != null ? child.pid() : options.serverPid();
        long idleFiles = serverPid > 0 ? new ServerProbe(serverPid).openFiles() : -1;
        // A run's own user names, so runs against one external server never share a session.
        String prefix = HexFormat.of().toHexDigits((short) ThreadLocalRandom.current().nextInt()) + "-";
        Report report = new Report();
        if (options.quick()) {
            report.note("--quick: a smoke test with small numbers; rates, latencies and per-connection memory "
                    + "from it say little about the targets (a few hundred connections are within GC noise)");
        }
        List<InetSocketAddress> servers = new ArrayList<>();
        if (children.isEmpty()) {
            servers.add(new InetSocketAddress(options.host(), port));
        }
        children.forEach(node -> servers.add(new InetSocketAddress(options.host(), webSocket ? node.webPort() : node.port())));
        Dialer dialer = dialer(options, servers, clientTls, webSocket);
        List<Long> serverPids = children.isEmpty() ? (serverPid > 0 ? List.of(serverPid) : List.of())
                : children.stream().flatMap(node -> node.pids().stream()).toList(); // with the Redis each started
        if (children.size() > 1) {
            report.note(String.format(Locale.ROOT, "%d nodes on one Redis; users spread over them in turn, so a "
                    + "random pair is on two nodes with probability %.2f; CPU per message sums the %d servers",
                    children.size(), (children.size() - 1.0) / children.size(), children.size()));
        }
        report.note("generator transport: " + dialer.transport().name() + ", " + options.ioThreads() + " I/O threads");
        report.note("connections: " + dialer.describe() + (tls ? "; server " + (child != null ? child.security()
                : "external") : ""));
        try {
            if (options.parts().contains(1) || options.parts().contains(2)) {
                chatParts(dialer, new CpuMeter(serverPids, options.cpuPids()), options, prefix, report);
            }
            if (options.parts().contains(4)) {
                RedisProbe redis = child != null ? child.redis() : null;
                if ((long) options.delayedFar() + options.delayed() + options.delayedBurst() > 0) {
                    progress("part 4: delayed messages");
                    DelayedPart.run(dialer, serverPid, redis, options, prefix, report);
                }
                progress("part 4: 'when online' messages");
                OnlineWaitsPhase.run(dialer, redis, options, prefix, report);
                progress("part 4: recurring messages");
                SeriesPhase.run(dialer, redis, options, prefix, report);
            }
            if (options.parts().contains(5)) {
                progress("part 5: group fan-out");
                GroupsPart.run(dialer, child != null ? child.redis() : null, options, prefix, report);
                progress("part 5: history and search");
                HistoryPart.run(dialer, options, prefix, report);
            }
            if (options.parts().contains(3)) {
                progress("part 3: holding idle connections");
                ConnectionsPart.run(dialer, child, serverPid, idleFiles, options, prefix, report);
            }
            for (ChildServer node : children) {
                if (!node.isAlive()) {
                    report.note("a server process died during the run; see " + node.log());
                }
            }
        } finally {
            stop(dialer);
            children.forEach(ChildServer::close);
        }
        String title = (options.quick() ? "cim load run (--quick smoke test)" : "cim load run") + ", parts "
                + options.parts();
        System.out.println(report.render(title, serverDescription, Report.command()));
        return 0;
    }

    /**
     * The clients' one event loop group (of the {@link NettyTransport} {@code --epoll} picks) and
     * one delay wheel for their scheduled-message jobs, as one program would have.
     */
    private static Dialer dialer(LoadOptions options, InetSocketAddress server, ClientTls tls, boolean webSocket) {
        return dialer(options, List.of(server), tls, webSocket);
    }

    private static Dialer dialer(LoadOptions options, List<InetSocketAddress> servers, ClientTls tls,
            boolean webSocket) {
        NettyTransport transport = options.epoll() ? NettyTransport.best() : NettyTransport.nio();
        EventLoopGroup group = transport.group(options.ioThreads(), new DefaultThreadFactory("loadgen-io", true));
        DelayScheduler wheel = DelayScheduler.builder().tick(options.tick()).threadNamePrefix("loadgen-wheel").build();
        return new Dialer(group, transport, wheel, servers, tls, webSocket, options.perSourceAddress());
    }

    private static void stop(Dialer dialer) throws InterruptedException {
        dialer.wheel().stopNow();
        dialer.group().shutdownGracefully(0, 2, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
    }

    /**
     * {@code --tls=both}: part 1 on a plaintext and a TLS child server of the same jar and settings,
     * started side by side, each with its own pool of {@code --users}; see {@link ComparisonPart}.
     */
    private static int compareTls(LoadOptions options) throws Exception {
        boolean webSocket = options.transport() == LoadOptions.TransportMode.WEBSOCKET;
        progress("starting a plaintext and a TLS server");
        ChildServer plain = ChildServer.start(options.serverJar(), options.serverHeap(), options.serverJvmArgs(),
                options.serverArgs(), false);
        ChildServer secure = null;
        try {
            secure = ChildServer.start(options.serverJar(), options.serverHeap(), options.serverJvmArgs(),
                    options.serverArgs(), true);
            ClientTls tls = ClientTls.create(secure.trust(), TlsProvider.AUTO);
            Dialer plainDialer = dialer(options, address(options, plain, webSocket), null, webSocket);
            Dialer tlsDialer = plainDialer.to(address(options, secure, webSocket), tls, webSocket);
            Report report = compare(options, plainDialer, "plaintext", SideUsers.cim(plainDialer), List.of(plain.pid()), "TLS",
                    SideUsers.cim(tlsDialer), List.of(secure.pid()),
                    Targets.closedLoopOnly(new ComparisonPart.Target(0.75, "≥ 0.75 (TLS costs at most 25 %)")));
            report.note("TLS: server " + secure.security());
            for (ChildServer child : List.of(plain, secure)) {
                if (!child.isAlive()) {
                    report.note("a server process died during the run; see " + child.log());
                }
            }
            String title = (options.quick() ? "cim load run (--quick smoke test)" : "cim load run")
                    + ", part 1 with TLS on and off";
            System.out.println(report.render(title, "plaintext: " + describe(plain) + "; TLS: " + describe(secure),
                    Report.command()));
        } finally {
            plain.close();
            if (secure != null) {
                secure.close();
            }
        }
        return 0;
    }

    /**
     * {@code --transport=both}: part 1 on one child server, a pool of {@code --users} on its chat
     * port and another on its web port's {@code /ws}; see {@link ComparisonPart}.
     */
    private static int compareTransports(LoadOptions options) throws Exception {
        boolean tls = options.tls() == LoadOptions.TlsMode.ON;
        progress("starting a server");
        ChildServer child = ChildServer.start(options.serverJar(), options.serverHeap(), options.serverJvmArgs(),
                options.serverArgs(), tls);
        try {
            ClientTls clientTls = tls ? ClientTls.create(child.trust(), TlsProvider.AUTO) : null;
            Dialer tcp = dialer(options, address(options, child, false), clientTls, false);
            Dialer webSocket = tcp.to(address(options, child, true), clientTls, true);
            Report report = compare(options, tcp, "TCP", SideUsers.cim(tcp), List.of(child.pid()), "WebSocket",
                    SideUsers.cim(webSocket), List.of(child.pid()),
                    Targets.closedLoopOnly(new ComparisonPart.Target(0.7, "≥ 0.7 of TCP")));
            report.note("both pools on the one server, " + child.security() + "; WebSocket: binary messages, "
                    + "subprotocol cim.proto, one envelope per message");
            if (!child.isAlive()) {
                report.note("the server process died during the run; see " + child.log());
            }
            String title = (options.quick() ? "cim load run (--quick smoke test)" : "cim load run")
                    + ", part 1 over TCP and WebSocket";
            System.out.println(report.render(title, describe(child), Report.command()));
        } finally {
            child.close();
        }
        return 0;
    }

    /**
     * One side of {@code --against}: a child process the clients connect to, or a peer server,
     * mosquitto or ejabberd (started through its script, or running already).
     */
    private record Against(LoadOptions.Against side, int port, List<Long> pids, String description,
            AutoCloseable process, java.util.function.BooleanSupplier alive) {

        static Against start(LoadOptions.Against side, LoadOptions options) throws IOException {
            if (side == LoadOptions.Against.SERVER) {
                ChildServer child = ChildServer.start(options.serverJar(), options.serverHeap(), options.serverJvmArgs(),
                        options.serverArgs(), false);
                // Its CPU with its Redis's: a peer keeps what it stores in its own process.
                return new Against(side, child.port(), child.pids(), describe(child), child, child::isAlive);
            }
            if (side == LoadOptions.Against.MOSQUITTO || side == LoadOptions.Against.EJABBERD) {
                PeerServer peer = peer(side, options);
                return new Against(side, peer.port(), List.of(peer.pid()), peer.describe(), peer, peer::isAlive);
            }
            ChildRelay relay = ChildRelay.start(options.serverHeap(), options.serverJvmArgs(),
                    side == LoadOptions.Against.RELAY_ACKED);
            return new Against(side, relay.port(), List.of(relay.pid()), relay.describe(), relay, relay::isAlive);
        }

        /** The peer server of {@code side}: the one at its port option, or one its script starts in a new directory. */
        private static PeerServer peer(LoadOptions.Against side, LoadOptions options) throws IOException {
            if (side == LoadOptions.Against.MOSQUITTO) {
                return options.mqttPort() > 0
                        ? MosquittoBroker.attach(options.peerScriptDir(), options.mqttDir(), options.mqttPort())
                        : MosquittoBroker.start(options.peerScriptDir(),
                                Files.createTempDirectory("cim-loadgen-mosquitto-"), Ports.free());
            }
            return options.xmppPort() > 0
                    ? PeerEjabberd.attach(options.peerScriptDir(), options.xmppDir(), options.xmppPort(), options.users())
                    : PeerEjabberd.start(options.peerScriptDir(), Files.createTempDirectory("cim-loadgen-ejabberd-"),
                            Ports.free(), options.users());
        }

        String name() {
            return side.label();
        }

        /**
         * This side's users: cim clients on {@code dialer}'s event loops, or a peer's clients (MQTT,
         * XMPP) with as many pacer loops.
         */
        SideUsers users(Dialer dialer, LoadOptions options) {
            if (side == LoadOptions.Against.MOSQUITTO) {
                int window = options.windows().stream().max(Integer::compare).orElseThrow();
                return SideUsers.peer(new MqttClientPool(options.host(), port, options.ioThreads(),
                        MqttClientPool.maxInflight(window, options.users())));
            }
            if (side == LoadOptions.Against.EJABBERD) {
                return SideUsers.peer(new XmppPool(XmppEndpoint.peer(port), options.ioThreads()));
            }
            return SideUsers.cim(dialer.to(new InetSocketAddress(options.host(), port), null, false));
        }
    }

    /**
     * What a comparison's results are held to.
     *
     * @param closedLoop the other side's closed-loop rate over the base's
     * @param curve      the other side's highest rate with p99 within the bound over the base's, or
     *                   null for no latency curve
     * @param lowerP99   the share of the rates both sustain at which the other side's p99 is the lower
     */
    private record Targets(ComparisonPart.Target closedLoop, ComparisonPart.Target curve,
            ComparisonPart.Target lowerP99) {

        static final ComparisonPart.Target NO_TARGET = new ComparisonPart.Target(0, "");

        /** The closed loop held to {@code closedLoop}, and no latency curve. */
        static Targets closedLoopOnly(ComparisonPart.Target closedLoop) {
            return new Targets(closedLoop, null, NO_TARGET);
        }

        /**
         * For {@code --against=first,anchor}: the issues' targets for the server on the relay, or on a
         * peer server (mosquitto, ejabberd).
         */
        static Targets against(LoadOptions.Against first, LoadOptions.Against anchor) {
            if (first == LoadOptions.Against.SERVER && anchor == LoadOptions.Against.RELAY) {
                return new Targets(new ComparisonPart.Target(0.9, "≥ 0.9 of the relay's"),
                        new ComparisonPart.Target(0.8, "≥ 0.8 of the relay's"), NO_TARGET);
            }
            if (first == LoadOptions.Against.SERVER
                    && (anchor == LoadOptions.Against.MOSQUITTO || anchor == LoadOptions.Against.EJABBERD)) {
                return new Targets(new ComparisonPart.Target(1.0, "≥ 1.0: more msgs/s than " + anchor.label()
                        + " at QoS-1-equivalent delivery"), NO_TARGET, new ComparisonPart.Target(1.0, "a lower p99 at "
                        + "every rate both sustain"));
            }
            return new Targets(NO_TARGET, NO_TARGET, NO_TARGET);
        }
    }

    /**
     * {@code --against=A,B}: part 1 on two sides, each a child process (the server, the minimal
     * relay, or the relay waiting for acknowledgements) or a peer server (Debian's mosquitto or
     * ejabberd), each with its own pool of {@code --users}: the closed loop alternated
     * ({@link ComparisonPart}), then the latency curve ({@link LatencyCurve}). A is measured against
     * B: ratios are A's over B's.
     */
    private static int compareAgainst(LoadOptions options) throws Exception {
        LoadOptions.Against first = options.against().get(0);
        LoadOptions.Against anchor = options.against().get(1);
        progress("starting " + anchor.label() + " and " + first.label());
        Against base = Against.start(anchor, options);
        Against other = null;
        try {
            other = Against.start(first, options);
            Dialer dialer = dialer(options, new InetSocketAddress(options.host(), base.port()), null, false);
            Report report = compare(options, dialer, base.name(), base.users(dialer, options), base.pids(),
                    other.name(), other.users(dialer, options), other.pids(), Targets.against(first, anchor));
            if (options.against().contains(LoadOptions.Against.SERVER)) {
                report.note("server: in its rows CPU per message is the cim server's and its embedded Redis's "
                        + "together (the relay has no Redis; a peer stores in its own process)");
            }
            if (options.against().contains(LoadOptions.Against.RELAY)
                    || options.against().contains(LoadOptions.Against.RELAY_ACKED)) {
                report.note("relay: dev.cim.loadgen.relay.BareRelay, the same codec, transport, event-loop settings "
                        + "and receipt batching as the server; no Redis, no deadlines or limits, no storage (its "
                        + "javadoc says what it skips)");
            }
            if (options.against().contains(LoadOptions.Against.MOSQUITTO)) {
                report.note("mosquitto: Debian's broker through bin/peer-mosquitto, on loopback, persistence on "
                        + "(written every autosave_interval, by default 30 min, and at exit: not a write per message), "
                        + "20,000 messages in flight and queued per client at most; its users are Eclipse Paho "
                        + "clients in persistent sessions (cleanSession=false), each subscribed at QoS 1 to its own "
                        + "topic, a send a QoS 1 PUBLISH to the recipient's topic with the same token text; delivery "
                        + "is the recipient's messageArrived, and the broker's PUBACKs are counted as 'accepted by the "
                        + "server', not as cim's receipts (which say the recipient has the message). In its rows "
                        + "'server' in CPU per message is the mosquitto process, and the generator's CPU includes "
                        + "Paho's three threads per client");
            }
            if (options.against().contains(LoadOptions.Against.EJABBERD)) {
                report.note("ejabberd: Debian's XMPP server through bin/peer-ejabberd, on loopback, its own node, "
                        + "Mnesia storage, mod_offline (a message to a user not online is stored) and mod_stream_mgmt, "
                        + "no traffic shaper; its users are the accounts u0.. the script registered, each a Smack "
                        + "connection with initial presence sent, a send a chat message to the recipient's bare JID "
                        + "with the same token text; delivery is the recipient's stanza listener, and the server's "
                        + "stream-management acks (XEP-0198, requested after every message) are counted as 'accepted "
                        + "by the server', not as cim's receipts (the ack is hop by hop: the server has the message, "
                        + "its recipient not yet). In its rows 'server' in CPU per message is ejabberd's Erlang VM "
                        + "(beam.smp), and the generator's CPU includes Smack's two threads per connection and its "
                        + "listener hand-off");
            }
            for (Against side : List.of(base, other)) {
                if (!side.alive().getAsBoolean()) {
                    report.note(side.name() + ": the process died during the run");
                }
            }
            String title = (options.quick() ? "cim load run (--quick smoke test)" : "cim load run") + ", part 1: "
                    + first.label() + " against " + anchor.label();
            System.out.println(report.render(title, base.name() + ": " + base.description() + "; " + other.name()
                    + ": " + other.description(), Report.command()));
        } finally {
            if (other != null) {
                other.process().close();
            }
            base.process().close();
        }
        return 0;
    }

    private static InetSocketAddress address(LoadOptions options, ChildServer child, boolean webSocket) {
        return new InetSocketAddress(options.host(), webSocket ? child.webPort() : child.port());
    }

    /**
     * Logs {@code --users} in on each side and runs {@link ComparisonPart} between them, then the
     * latency curve if {@code targets} has one; {@code dialer} is the cim clients' (a second cim side
     * shares its event loop group and wheel), stopped at the end.
     */
    private static Report compare(LoadOptions options, Dialer dialer, String baseName, SideUsers base,
            List<Long> basePids, String otherName, SideUsers other, List<Long> otherPids, Targets targets)
            throws InterruptedException {
        String prefix = HexFormat.of().toHexDigits((short) ThreadLocalRandom.current().nextInt()) + "-";
        Report report = new Report();
        if (options.quick()) {
            report.note("--quick: a smoke test with small numbers; the rates and their ratio say little about the "
                    + "target");
        }
        report.note("generator transport: " + dialer.transport().name() + ", " + options.ioThreads() + " I/O threads");
        report.note(baseName + " connections: " + base.connections() + "; " + otherName + " connections: "
                + other.connections());
        try (base; other) {
            progress("logging in " + options.users() + " users on each side");
            List<? extends ChatUser> baseUsers = base.open(prefix + "a", options.users(), Duration.ofMinutes(5),
                    baseName, report);
            List<? extends ChatUser> otherUsers = other.open(prefix + "b", options.users(), Duration.ofMinutes(5),
                    otherName, report);
            if (baseUsers.size() < 2 || otherUsers.size() < 2) {
                report.note("too few users logged in: no comparison");
            } else {
                progress("part 1, " + baseName + " and " + otherName + ", alternated");
                ComparisonPart.Side baseSide = new ComparisonPart.Side(baseName, baseUsers,
                        new CpuMeter(basePids, List.of()));
                ComparisonPart.Side otherSide = new ComparisonPart.Side(otherName, otherUsers,
                        new CpuMeter(otherPids, List.of()));
                ComparisonPart.Means means = ComparisonPart.run(baseSide, otherSide, targets.closedLoop(), options,
                        report);
                if (targets.curve() != null && means != null) {
                    progress("part 1, latency curve of " + otherName + " and " + baseName);
                    double top = options.curveTop() > 0 ? options.curveTop() : Math.max(means.base(), means.other());
                    LatencyCurve.run(baseSide, otherSide, top, targets.curve(),
                            targets.lowerP99(), options, report);
                }
            }
            report.note(baseName + " pool connections: " + base.counters() + "; " + otherName
                    + " pool connections: " + other.counters());
        } finally {
            stop(dialer);
        }
        return report;
    }

    private static String describe(ChildServer child) {
        return "child process pid " + child.pid() + " (log " + child.log() + "): `" + String.join(" ", child.command()) + "`";
    }

    private static void chatParts(Dialer dialer, CpuMeter cpu, LoadOptions options, String prefix, Report report)
            throws InterruptedException {
        try (ClientPool pool = dialer.pool()) {
            progress("logging in " + options.users() + " chat users");
            Opened<LoadClient> opened = pool.open(prefix + "u", options.users(), Duration.ofMinutes(5));
            if (opened.failed() > 0) {
                progress(opened.failed() + " of " + options.users() + " logins failed: " + opened.firstFailure());
            }
            report.note(String.format(Locale.ROOT, "chat users (parts 1, 2): %,d logged in of %,d in %.1f s%s",
                    opened.clients().size(), options.users(), opened.elapsed().toMillis() / 1000.0,
                    opened.failed() == 0 ? "" : "; failed " + opened.failed() + ": " + opened.firstFailure()));
            if (opened.clients().size() < 2) {
                report.note("too few chat users logged in: parts 1 and 2 skipped");
                return;
            }
            if (options.parts().contains(1)) {
                progress("part 1: throughput and latency");
                ThroughputPart.run(opened.clients(), options, cpu, report);
            }
            if (options.parts().contains(2)) {
                progress("part 2: broadcast fan-out");
                BroadcastPart.run(opened.clients(), options, report);
            }
            report.note("chat pool connections: " + pool.counters());
        }
    }

    /** One line on standard error, so standard output carries only the report. */
    private static void progress(String line) {
        System.err.println("cim-loadgen: " + line);
    }
}
