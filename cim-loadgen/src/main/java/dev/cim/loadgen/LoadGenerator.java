package dev.cim.loadgen;

import dev.cim.client.core.ClientTls;
import dev.cim.common.net.NettyTransport;
import dev.cim.common.tls.TlsProvider;
import dev.cim.common.wheel.DelayScheduler;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
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
 *       of their senders gone (lateness by who sent them, loss, duplication);</li>
 *   <li>groups, history and search: {@link GroupsPart}, fan-out to a group of {@code --group-members}
 *       (time until the last member has a message, all online and half offline; deliveries per
 *       second; Redis bytes per group message; the offline half's catch-up from the group's log),
 *       then {@link HistoryPart}, a page of 50 at random depths of a {@code --history-messages}
 *       conversation and a search over {@code --search-messages} messages.</li>
 * </ol>
 * Parts 1 and 2 share one pool of {@code --users} chat clients; part 4 opens its senders and
 * receivers once that has closed, part 5 its members and then its history users after that, and
 * part 3 its idle pool last. Parts run in the order 1, 2, 4, 5, 3. Every client shares one event
 * loop group of {@code --io-threads} threads, of the {@link NettyTransport} picked by {@code --epoll}. The
 * generator stops by itself; a child server is stopped on exit.
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
        if (options.tls() == LoadOptions.TlsMode.BOTH) {
            return compareTls(options);
        }
        boolean tls = options.tls() == LoadOptions.TlsMode.ON;
        ChildServer child = options.childServer()
                ? ChildServer.start(options.serverJar(), options.serverHeap(), options.serverJvmArgs(),
                        options.serverArgs(), tls) : null;
        String serverDescription = child != null
                ? describe(child)
                : "external at " + options.host() + ":" + options.port() + (options.serverPid() > 0
                        ? ", pid " + options.serverPid() : ", pid unknown (no memory readings)");
        ClientTls clientTls = null;
        if (tls) {
            clientTls = ClientTls.create(child != null ? child.trust() : options.tlsTrust(), TlsProvider.AUTO);
            if (options.tlsServerName() != null) {
                clientTls = clientTls.serverName(options.tlsServerName());
            }
        }
        InetSocketAddress server = new InetSocketAddress(options.host(), child != null ? child.port() : options.port());
        long serverPid = child != null ? child.pid() : options.serverPid();
        long idleFiles = serverPid > 0 ? new ServerProbe(serverPid).openFiles() : -1;
        // A run's own user names, so runs against one external server never share a session.
        String prefix = HexFormat.of().toHexDigits((short) ThreadLocalRandom.current().nextInt()) + "-";
        Report report = new Report();
        if (options.quick()) {
            report.note("--quick: a smoke test with small numbers; rates, latencies and per-connection memory "
                    + "from it say little about the targets (a few hundred connections are within GC noise)");
        }
        NettyTransport transport = options.epoll() ? NettyTransport.best() : NettyTransport.nio();
        report.note("generator transport: " + transport.name() + ", " + options.ioThreads() + " I/O threads");
        report.note(tls ? "TLS on every connection: server " + (child != null ? child.security() : "external")
                + ", clients " + clientTls : "plaintext (loopback)");
        EventLoopGroup group = transport.group(options.ioThreads(), new DefaultThreadFactory("loadgen-io", true));
        // One delay wheel for every client's scheduled-message jobs, as one program would have.
        DelayScheduler wheel = DelayScheduler.builder().tick(options.tick()).threadNamePrefix("loadgen-wheel").build();
        try {
            if (options.parts().contains(1) || options.parts().contains(2)) {
                chatParts(group, transport, wheel, server, serverPid, options, prefix, clientTls, report);
            }
            if (options.parts().contains(4)) {
                progress("part 4: delayed messages");
                DelayedPart.run(group, transport, wheel, server, serverPid, child != null ? child.redis() : null,
                        options, prefix, clientTls, report);
            }
            if (options.parts().contains(5)) {
                progress("part 5: group fan-out");
                GroupsPart.run(group, transport, wheel, server, child != null ? child.redis() : null, options, prefix,
                        clientTls, report);
                progress("part 5: history and search");
                HistoryPart.run(group, transport, wheel, server, options, prefix, clientTls, report);
            }
            if (options.parts().contains(3)) {
                progress("part 3: holding idle connections");
                ConnectionsPart.run(group, transport, wheel, server, serverPid, idleFiles, options, prefix, clientTls,
                        report);
            }
            if (child != null && !child.isAlive()) {
                report.note("the server process died during the run; see " + child.log());
            }
        } finally {
            wheel.stopNow();
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
            if (child != null) {
                child.close();
            }
        }
        String title = (options.quick() ? "cim load run (--quick smoke test)" : "cim load run") + ", parts "
                + options.parts();
        System.out.println(report.render(title, serverDescription, Report.command()));
        return 0;
    }

    /**
     * {@code --tls=both}: part 1 on a plaintext and a TLS child server of the same jar and settings,
     * started side by side, each with its own pool of {@code --users}; see {@link TlsComparisonPart}.
     */
    private static int compareTls(LoadOptions options) throws Exception {
        String prefix = HexFormat.of().toHexDigits((short) ThreadLocalRandom.current().nextInt()) + "-";
        Report report = new Report();
        if (options.quick()) {
            report.note("--quick: a smoke test with small numbers; the rates and their ratio say little about the "
                    + "target");
        }
        NettyTransport transport = options.epoll() ? NettyTransport.best() : NettyTransport.nio();
        report.note("generator transport: " + transport.name() + ", " + options.ioThreads() + " I/O threads");
        progress("starting a plaintext and a TLS server");
        ChildServer plain = ChildServer.start(options.serverJar(), options.serverHeap(), options.serverJvmArgs(),
                options.serverArgs(), false);
        ChildServer secure = null;
        EventLoopGroup group = null;
        DelayScheduler wheel = null;
        try {
            secure = ChildServer.start(options.serverJar(), options.serverHeap(), options.serverJvmArgs(),
                    options.serverArgs(), true);
            ClientTls tls = ClientTls.create(secure.trust(), TlsProvider.AUTO);
            report.note("TLS: server " + secure.security() + "; clients " + tls);
            group = transport.group(options.ioThreads(), new DefaultThreadFactory("loadgen-io", true));
            wheel = DelayScheduler.builder().tick(options.tick()).threadNamePrefix("loadgen-wheel").build();
            try (ClientPool plainPool = new ClientPool(group, transport, wheel,
                    new InetSocketAddress(options.host(), plain.port()), false, 2, options.perSourceAddress(), null);
                    ClientPool tlsPool = new ClientPool(group, transport, wheel,
                            new InetSocketAddress(options.host(), secure.port()), false, 2, options.perSourceAddress(),
                            tls)) {
                progress("logging in " + options.users() + " users on each server");
                ClientPool.Opened plainUsers = pool(plainPool, prefix + "p", options, "plaintext", report);
                ClientPool.Opened tlsUsers = pool(tlsPool, prefix + "t", options, "TLS", report);
                if (plainUsers.clients().size() < 2 || tlsUsers.clients().size() < 2) {
                    report.note("too few users logged in: no comparison");
                } else {
                    progress("part 1 with TLS on and off, alternated");
                    TlsComparisonPart.run(plainUsers.clients(), tlsUsers.clients(), options, new CpuMeter(plain.pid()),
                            new CpuMeter(secure.pid()), report);
                }
                report.note("plaintext pool connections: " + plainPool.counters() + "; TLS pool connections: "
                        + tlsPool.counters());
            }
            for (ChildServer child : List.of(plain, secure)) {
                if (!child.isAlive()) {
                    report.note("a server process died during the run; see " + child.log());
                }
            }
        } finally {
            if (wheel != null) {
                wheel.stopNow();
            }
            if (group != null) {
                group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
            }
            plain.close();
            if (secure != null) {
                secure.close();
            }
        }
        String title = (options.quick() ? "cim load run (--quick smoke test)" : "cim load run")
                + ", part 1 with TLS on and off";
        System.out.println(report.render(title, "plaintext: " + describe(plain) + "; TLS: " + describe(secure),
                Report.command()));
        return 0;
    }

    private static ClientPool.Opened pool(ClientPool pool, String prefix, LoadOptions options, String what,
            Report report) throws InterruptedException {
        ClientPool.Opened opened = pool.open(prefix, options.users(), Duration.ofMinutes(5));
        report.note(String.format(Locale.ROOT, "%s users: %,d logged in of %,d in %.1f s%s", what,
                opened.clients().size(), options.users(), opened.elapsed().toMillis() / 1000.0,
                opened.failed() == 0 ? "" : "; failed " + opened.failed() + ": " + opened.firstFailure()));
        return opened;
    }

    private static String describe(ChildServer child) {
        return "child process pid " + child.pid() + " (log " + child.log() + "): `" + String.join(" ", child.command()) + "`";
    }

    private static void chatParts(EventLoopGroup group, NettyTransport transport, DelayScheduler wheel,
            InetSocketAddress server, long serverPid, LoadOptions options, String prefix, ClientTls tls, Report report)
            throws InterruptedException {
        try (ClientPool pool = new ClientPool(group, transport, wheel, server, false, 2, options.perSourceAddress(),
                tls)) {
            progress("logging in " + options.users() + " chat users");
            ClientPool.Opened opened = pool.open(prefix + "u", options.users(), Duration.ofMinutes(5));
            report.note(String.format(Locale.ROOT, "chat users (parts 1, 2): %,d logged in of %,d in %.1f s%s",
                    opened.clients().size(), options.users(), opened.elapsed().toMillis() / 1000.0,
                    opened.failed() == 0 ? "" : "; failed " + opened.failed() + ": " + opened.firstFailure()));
            if (opened.clients().size() < 2) {
                report.note("too few chat users logged in: parts 1 and 2 skipped");
                return;
            }
            if (options.parts().contains(1)) {
                progress("part 1: throughput and latency");
                ThroughputPart.run(opened.clients(), options, new CpuMeter(serverPid), report);
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
