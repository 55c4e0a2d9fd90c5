package dev.cim.loadgen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Part 3, connections held: opens {@code connections} more clients that log in and then only
 * heartbeat, holds them for {@code hold}, and reports what each costs the server: memory, and the
 * server's CPU at rest (the first half of the hold but its first seconds, heartbeats only). In the second half 1 % of them
 * chat ({@value #CHAT_PER_USER_PER_SECOND} private message a second each, between random pairs of
 * them), and the p99 of that traffic is reported with the rest idle around it. Then every client
 * leaves and the same users log in again, as after a restart: the login rate for existing accounts
 * (password and all, no session token). Last, with a child server, the node itself restarts under
 * those clients (SIGTERM, then the same command on the same data directory), and the part measures
 * how long until every one is logged in again: the client library's jittered backoff, its session
 * token, and the server's logins together.
 *
 * <p><b>Per connection</b> means (after - before) / connections held, where before and after are
 * {@link ServerProbe} readings taken right before opening and at the end of the hold, each after a
 * full GC: so the heap figure is the live heap retained per idle logged-in connection (channel,
 * pipeline, session, presence), and the RSS figure adds native memory (socket buffers the JVM
 * touched, direct buffers, heap pages first touched). Without a server pid (an external server
 * without {@code --server-pid}) memory is not read.
 */
final class ConnectionsPart {

    /** Messages a second each chatting user sends. */
    static final int CHAT_PER_USER_PER_SECOND = 1;
    /** How long the clients may take to be back after a node restart: the bound, twice. */
    private static final Duration BACK_DEADLINE = Duration.ofSeconds(120);
    /** How long {@code --await-restart} holds the clients for a restart to come. */
    private static final Duration RESTART_DEADLINE = Duration.ofMinutes(10);
    /** The line on standard error that says the clients are held for a restart. */
    static final String AWAITING_RESTART = "cim-loadgen: holding the clients for a node restart";

    private ConnectionsPart() {
    }

    /**
     * @param idleFiles the server's open files before any client connected: the baseline is read
     *                  only once the chat pool's connections are closed on the server side too
     */
    /**
     * @param server the child server, restarted at the end; null for a server of one's own (no
     *               restart)
     */
    static void run(Dialer dialer, ChildServer server, long serverPid, long idleFiles, LoadOptions options,
            String prefix, Report report) throws InterruptedException {
        ServerProbe probe = serverPid > 0 ? new ServerProbe(serverPid) : null;
        if (probe != null) {
            awaitClosed(probe, idleFiles);
        }
        ServerProbe.Reading before = probe != null ? probe.read() : null;
        // Idle pools bind from 127.0.0.10 up, away from the chat pool's 127.0.0.2.
        try (ClientPool pool = new ClientPool(dialer, true, 10)) {
            Opened<LoadClient> opened = pool.open(prefix + "i", options.connections(), Duration.ofMinutes(10));
            int held = opened.clients().size();
            report.add(3, String.format(Locale.ROOT, "idle clients logged in, new accounts (of %,d asked)", options.connections()),
                    String.format(Locale.ROOT, "**%,d** in %.1f s (%,.0f logins/s); failed %,d%s", held,
                            opened.elapsed().toMillis() / 1000.0, held / Math.max(1e-3, opened.elapsed().toMillis() / 1000.0),
                            opened.failed(), opened.firstFailure().isEmpty() ? "" : " (first: " + opened.firstFailure() + ")"),
                    "≥ 15,000");
            long droppedBefore = pool.counters().dropped.sum();
            long holdStart = System.nanoTime();
            long holdEnd = holdStart + options.hold().toNanos();
            long restEnd = holdStart + options.hold().toNanos() / 2;
            CpuMeter cpu = new CpuMeter(serverPid);
            // What the logins set off (inbox reads, presence writes, the JIT) settles before the rest is read.
            long settled = holdStart + Math.min(TimeUnit.SECONDS.toNanos(5), options.hold().toNanos() / 4);
            long minOpen = Math.min(held, holdUntil(settled, pool));
            CpuMeter.Reading restFrom = cpu.read();
            long restStart = System.nanoTime();
            minOpen = Math.min(minOpen, holdUntil(restEnd, pool));
            CpuMeter.Reading restTo = cpu.read();
            long restNanos = System.nanoTime() - restStart;
            report.add(3, String.format(Locale.ROOT, "server CPU at rest, %,d idle connections heartbeating, over %.1f s",
                            held, restNanos / 1e9), restShare(restFrom, restTo, restNanos), "≤ 5 % of a core");
            int chatting = Math.max(2, held / 100);
            if (held >= 2) {
                Pairs pairs = new Pairs(opened.clients().subList(0, chatting));
                Duration chatFor = Duration.ofNanos(Math.max(TimeUnit.SECONDS.toNanos(1), holdEnd - System.nanoTime()));
                PacedRun.Result chat = new PacedRun(pairs, "idle-chat", chatting * CHAT_PER_USER_PER_SECOND,
                        chatFor).run(cpu);
                report.add(3, String.format(Locale.ROOT, "1 %% chatting among them: %,d users, %d msg/s each, for %.1f s",
                                chatting, CHAT_PER_USER_PER_SECOND, chatFor.toMillis() / 1000.0),
                        "send→receipt " + chat.latency().toMillis() + "; "
                                + ThroughputPart.accounting(chat.ledger(), chat.receipts()), "");
            }
            minOpen = Math.min(minOpen, holdUntil(holdEnd, pool));
            ServerProbe.Reading after = probe != null ? probe.read() : null;
            report.add(3, String.format(Locale.ROOT, "held for %ss with heartbeats", options.hold().toMillis() / 1000.0),
                    String.format(Locale.ROOT, "fewest open %,d; dropped during the hold %,d; whole pool: %s", minOpen,
                            pool.counters().dropped.sum() - droppedBefore, pool.counters()), "all held");
            if (probe == null || held == 0) {
                report.add(3, "server memory per idle connection", "not read (no server pid)", "≤ 4 KB heap");
            } else {
                reportMemory(before, after, held, report);
            }
            pool.close();
            if (probe != null) {
                awaitClosed(probe, before.openFiles());
            }
            relogin(dialer, server, prefix, held, options.awaitRestart(), report);
        }
    }

    private static void reportMemory(ServerProbe.Reading before, ServerProbe.Reading after, int held, Report report) {
            report.add(3, "server live heap per idle connection (jcmd GC.run, then GC.heap_info used)",
                    String.format(Locale.ROOT, "**%s** (%s → %s)", perConnection(before.liveHeapBytes(),
                            after.liveHeapBytes(), held), MemoryGrowth.mib(before.liveHeapBytes()),
                            MemoryGrowth.mib(after.liveHeapBytes())),
                    "≤ 4 KB");
            report.add(3, "server RSS per idle connection (/proc/pid/status VmRSS)",
                    String.format(Locale.ROOT, "%s (%s → %s); open fds %,d → %,d", perConnection(before.rssBytes(),
                            after.rssBytes(), held), MemoryGrowth.mib(before.rssBytes()),
                            MemoryGrowth.mib(after.rssBytes()), before.openFiles(), after.openFiles()), "");
    }

    /**
     * The same users, gone, log in again: existing accounts, with their passwords. Then, with a child
     * server, the node restarts under them ({@link #restart}).
     */
    private static void relogin(Dialer dialer, ChildServer server, String prefix, int users, Path awaitRestart,
            Report report) throws InterruptedException {
        try (ClientPool again = new ClientPool(dialer, true, 10)) {
            Opened<LoadClient> opened = again.open(prefix + "i", users, Duration.ofMinutes(10));
            report.add(3, String.format(Locale.ROOT, "the same %,d users log in again (existing accounts, password)",
                            users),
                    String.format(Locale.ROOT, "**%,.0f logins/s** (%,d in %.1f s); failed %,d%s",
                            opened.clients().size() / Math.max(1e-3, opened.elapsed().toMillis() / 1000.0),
                            opened.clients().size(), opened.elapsed().toMillis() / 1000.0, opened.failed(),
                            opened.firstFailure().isEmpty() ? "" : " (first: " + opened.firstFailure() + ")"),
                    "≥ 1,000/s");
            if (server != null && !opened.clients().isEmpty()) {
                restart(server, again, opened.clients().size(), report);
            } else if (awaitRestart != null && !opened.clients().isEmpty()) {
                awaitRestart(again, opened.clients().size(), awaitRestart, report);
            }
        }
    }

    /**
     * Restarts the node under the {@code users} logged-in clients of {@code pool} and waits until
     * each has logged in again (its library reconnects with backoff and its session token).
     */
    private static void restart(ChildServer server, ClientPool pool, int users, Report report)
            throws InterruptedException {
        long droppedBefore = pool.counters().dropped.sum();
        long stopping = System.nanoTime();
        try {
            server.restart();
        } catch (IOException | RuntimeException e) {
            report.add(3, "node restart under " + users + " clients", "the server did not start again: " + e, "");
            return;
        }
        long listening = System.nanoTime();
        long back = awaitBack(pool, users, stopping, listening + BACK_DEADLINE.toNanos());
        long end = System.nanoTime();
        report.add(3, String.format(Locale.ROOT, "node restart (SIGTERM, started again on its data) under %,d "
                        + "logged-in clients: all back (session tokens, the library's backoff)", users),
                String.format(Locale.ROOT, "**%,d of %,d back %.1f s after it listened again** (%.1f s after the "
                                + "SIGTERM; stop and start took %.1f s); connections lost or refused meanwhile %,d "
                                + "(each try while it was down counts); not back %,d",
                        back, users, (end - listening) / 1e9, (end - stopping) / 1e9, (listening - stopping) / 1e9,
                        pool.counters().dropped.sum() - droppedBefore, users - back),
                "all back within 60 s");
    }

    /**
     * Holds the {@code users} logged-in clients of {@code pool} until the server (not this program's
     * child) restarts under them, then waits until each has logged in again; or until {@code release}
     * exists, then says how many it held meanwhile (a node not restarted, whose clients stay while
     * another's restarts). Announces on standard error ({@link #AWAITING_RESTART}) that it holds them,
     * for whoever restarts the node. Measured from the first client seen gone (every 50 ms): none can
     * be back before the server listens again.
     */
    private static void awaitRestart(ClientPool pool, int users, Path release, Report report)
            throws InterruptedException {
        long droppedBefore = pool.counters().dropped.sum();
        System.err.println(AWAITING_RESTART);
        long deadline = System.nanoTime() + RESTART_DEADLINE.toNanos();
        long open;
        while ((open = pool.openCount()) >= users && !Files.exists(release) && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50); // polling a condition, with a deadline
        }
        long gone = System.nanoTime();
        if (open >= users) {
            report.add(3, String.format(Locale.ROOT, "%,d logged-in clients held while another node restarted", users),
                    Files.exists(release)
                            ? String.format(Locale.ROOT, "all held; dropped meanwhile %,d",
                                    pool.counters().dropped.sum() - droppedBefore)
                            : "neither a restart nor the release came within " + RESTART_DEADLINE.toSeconds() + " s",
                    "");
            return;
        }
        long back = awaitBack(pool, users, gone, gone + BACK_DEADLINE.toNanos());
        long end = System.nanoTime();
        report.add(3, String.format(Locale.ROOT, "node restart (by the fleet) under %,d logged-in clients: all back "
                        + "(session tokens, the library's backoff)", users),
                String.format(Locale.ROOT, "**%,d of %,d back %.1f s after the first was seen gone**; connections "
                        + "lost or refused meanwhile %,d; not back %,d", back, users, (end - gone) / 1e9,
                        pool.counters().dropped.sum() - droppedBefore, users - back),
                "all back within 60 s");
    }

    /**
     * Waits until {@code users} clients of {@code pool} are back (each once: open now, logged in since
     * {@code since}; one that came back and was dropped again counts when it is back again), or until
     * {@code deadline}; returns how many are.
     */
    private static long awaitBack(ClientPool pool, int users, long since, long deadline) throws InterruptedException {
        long back;
        while ((back = pool.loggedInSince(since)) < users && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50); // polling a condition, with a deadline
        }
        return back;
    }

    /** Holds until {@code end}, looking at the pool once a second; returns the fewest open seen. */
    private static long holdUntil(long end, ClientPool pool) throws InterruptedException {
        long minOpen = Long.MAX_VALUE;
        while (System.nanoTime() < end) {
            // Holding is the measurement; look at the connections once a second meanwhile.
            TimeUnit.NANOSECONDS.sleep(Math.min(TimeUnit.SECONDS.toNanos(1), Math.max(0, end - System.nanoTime())));
            minOpen = Math.min(minOpen, pool.openCount());
        }
        return minOpen;
    }

    /** "1.23 % of a core": the server's CPU between two readings over {@code nanos}. */
    private static String restShare(CpuMeter.Reading from, CpuMeter.Reading to, long nanos) {
        if (from.server().isEmpty() || to.server().isEmpty()) {
            return "not read (no server pid)";
        }
        double share = to.server().get().minus(from.server().get()).toNanos() * 100.0 / nanos;
        return String.format(Locale.ROOT, "**%.2f %% of a core**", share);
    }

    /** Waits (up to 30 s) until the server holds no more files than before any client came. */
    private static void awaitClosed(ServerProbe probe, long idleFiles) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (idleFiles >= 0 && probe.openFiles() > idleFiles && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50); // polling a condition, with a deadline
        }
    }

    private static String perConnection(long before, long after, int held) {
        if (before < 0 || after < 0) {
            return "unreadable";
        }
        if (after < before) {
            // The JVM gave back heap that earlier parts had grown: the connections' share is hidden.
            return "not measurable in this run: the server's memory fell while the connections were added";
        }
        return String.format(Locale.ROOT, "%.2f KB", (after - before) / 1024.0 / held);
    }
}
