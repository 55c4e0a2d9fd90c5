package dev.cim.loadgen;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Part 3, connections held: opens {@code connections} more clients that log in and then only
 * heartbeat, holds them for {@code hold}, and reports what each costs the server.
 *
 * <p><b>Per connection</b> means (after - before) / connections held, where before and after are
 * {@link ServerProbe} readings taken right before opening and at the end of the hold, each after a
 * full GC: so the heap figure is the live heap retained per idle logged-in connection (channel,
 * pipeline, session, presence), and the RSS figure adds native memory (socket buffers the JVM
 * touched, direct buffers, heap pages first touched). Without a server pid (an external server
 * without {@code --server-pid}) memory is not read.
 */
final class ConnectionsPart {

    private ConnectionsPart() {
    }

    /**
     * @param idleFiles the server's open files before any client connected: the baseline is read
     *                  only once the chat pool's connections are closed on the server side too
     */
    static void run(Dialer dialer, long serverPid, long idleFiles, LoadOptions options, String prefix, Report report)
            throws InterruptedException {
        ServerProbe probe = serverPid > 0 ? new ServerProbe(serverPid) : null;
        if (probe != null) {
            awaitClosed(probe, idleFiles);
        }
        ServerProbe.Reading before = probe != null ? probe.read() : null;
        // Idle pools bind from 127.0.0.10 up, away from the chat pool's 127.0.0.2.
        try (ClientPool pool = new ClientPool(dialer, true, 10)) {
            ClientPool.Opened opened = pool.open(prefix + "i", options.connections(), Duration.ofMinutes(10));
            int held = opened.clients().size();
            report.add(3, String.format(Locale.ROOT, "idle clients logged in (of %,d asked)", options.connections()),
                    String.format(Locale.ROOT, "**%,d** in %.1f s (%,.0f logins/s); failed %,d%s", held,
                            opened.elapsed().toMillis() / 1000.0, held / Math.max(1e-3, opened.elapsed().toMillis() / 1000.0),
                            opened.failed(), opened.firstFailure().isEmpty() ? "" : " (first: " + opened.firstFailure() + ")"),
                    "≥ 15,000");
            long droppedBefore = pool.counters().dropped.sum();
            long holdEnd = System.nanoTime() + options.hold().toNanos();
            long minOpen = held;
            while (System.nanoTime() < holdEnd) {
                // Holding is the measurement; look at the connections once a second meanwhile.
                TimeUnit.NANOSECONDS.sleep(Math.min(TimeUnit.SECONDS.toNanos(1), Math.max(0, holdEnd - System.nanoTime())));
                minOpen = Math.min(minOpen, pool.openCount());
            }
            ServerProbe.Reading after = probe != null ? probe.read() : null;
            report.add(3, String.format(Locale.ROOT, "held for %ss with heartbeats", options.hold().toMillis() / 1000.0),
                    String.format(Locale.ROOT, "fewest open %,d; dropped during the hold %,d; whole pool: %s", minOpen,
                            pool.counters().dropped.sum() - droppedBefore, pool.counters()), "all held");
            if (probe == null || held == 0) {
                report.add(3, "server memory per idle connection", "not read (no server pid)", "≤ 10 KB heap");
                return;
            }
            report.add(3, "server live heap per idle connection (jcmd GC.run, then GC.heap_info used)",
                    String.format(Locale.ROOT, "**%s** (%s → %s)", perConnection(before.liveHeapBytes(),
                            after.liveHeapBytes(), held), MemoryGrowth.mib(before.liveHeapBytes()),
                            MemoryGrowth.mib(after.liveHeapBytes())),
                    "≤ 10 KB");
            report.add(3, "server RSS per idle connection (/proc/pid/status VmRSS)",
                    String.format(Locale.ROOT, "%s (%s → %s); open fds %,d → %,d", perConnection(before.rssBytes(),
                            after.rssBytes(), held), MemoryGrowth.mib(before.rssBytes()),
                            MemoryGrowth.mib(after.rssBytes()), before.openFiles(), after.openFiles()), "");
        }
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
