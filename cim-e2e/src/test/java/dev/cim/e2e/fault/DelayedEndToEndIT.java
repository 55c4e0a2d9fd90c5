package dev.cim.e2e.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.e2e.JavaProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Scheduled messages outlive the processes around them: the sender's client killed right after
 * scheduling, the server killed while they wait, two nodes racing for the same second. Real server
 * jars, real Redis, clients as processes of their own; every message counted by number.
 */
class DelayedEndToEndIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    /**
     * How late a message the server sends may be shown here: the server's tick and the 100 ms,
     * plus the hops to the receiver's process, on a 2-core machine shared with two server JVMs. The
     * benchmark measures the real figures; this only catches a message that is not on time at all.
     */
    private static final Duration LATE_BOUND = Duration.ofMillis(1000);
    /** For a burst of 1,000 due in one second, the bound: the last within 5 s of its time. */
    private static final Duration BURST_LATE_BOUND = Duration.ofSeconds(5);

    /** One shown scheduled message: its number, when it was due and shown (epoch ms), who sent it. */
    private record Shown(long n, long dueMillis, long atMillis, String by) {
        long lateMillis() {
            return atMillis - dueMillis;
        }
    }

    @Test
    void senderKilledAfterScheduling_itsTwentyMessagesArriveOnceEach_onTime_sentByTheServer() throws Exception {
        try (Cluster cluster = new Cluster(true, 1, "everysec")) {
            cluster.start();
            String at = cluster.addresses();
            JavaProcess receiver = connected(cluster.receiver("bob", at));
            Instant now = Instant.now();
            JavaProcess sender = connected(cluster.scheduler("alice", at, "bob", 20, now.plusSeconds(5), now.plusSeconds(30)));
            sender.await("DONE", WAIT);
            assertThat(lines(sender, "SCHEDULED")).hasSize(20);

            sender.kill(); // SIGKILL: nothing of the client survives but what the server holds

            List<Shown> shown = awaitShown(receiver, 20, Duration.ofSeconds(30).plus(WAIT));
            assertThat(shown).extracting(Shown::n).containsExactlyInAnyOrderElementsOf(range(20));
            assertOnTime(shown, LATE_BOUND);
            assertThat(shown).extracting(Shown::by).containsOnly("server");
            report("sender SIGKILL after scheduling 20 (5..30 s)", shown);
        }
    }

    @Test
    void serverKilledAndRestarted_whileAThousandWait_allArriveOnceEach() throws Exception {
        try (Cluster cluster = new Cluster(true, 1, "everysec", "--cim.server.delays.max-per-user=2000")) {
            cluster.start();
            String at = cluster.addresses();
            JavaProcess receiver = connected(cluster.receiver("dora", at));
            Instant first = Instant.now().plusSeconds(12);
            JavaProcess sender = connected(cluster.scheduler("carl", at, "dora", 1000, first, first.plusSeconds(8)));
            sender.await("DONE", WAIT);
            assertThat(lines(sender, "SCHEDULED")).hasSize(1000);

            cluster.killServer(0); // its embedded Redis stops with it (the watchdog), writing its file
            cluster.startServer(0);

            List<Shown> shown = awaitShown(receiver, 1000, WAIT);
            assertThat(shown).extracting(Shown::n).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(range(1000));
            assertThat(shown).allSatisfy(s -> assertThat(s.atMillis()).as("message %d early", s.n())
                    .isGreaterThanOrEqualTo(s.dueMillis()));
            report("server SIGKILL and restart with 1,000 waiting", shown);
        }
    }

    @Test
    void twoNodes_aThousandDueInTheSameSecond_eachDeliveredExactlyOnce() throws Exception {
        try (Cluster cluster = new Cluster(false, 2, "everysec")) {
            cluster.start();
            JavaProcess receiver = connected(cluster.receiver("zoe", "127.0.0.1:" + cluster.port(0)));
            Instant second = Instant.now().plusSeconds(15).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
            Instant last = second.plusMillis(999);
            JavaProcess a = connected(cluster.scheduler("yann", "127.0.0.1:" + cluster.port(0), "zoe", 500, second, last));
            JavaProcess b = connected(cluster.scheduler("xavi", "127.0.0.1:" + cluster.port(1), "zoe", 500, second, last));
            a.await("DONE", WAIT);
            b.await("DONE", WAIT);

            List<String> raw = awaitLines(receiver, "RECV ", 1000, Duration.ofSeconds(15).plus(WAIT));
            Map<String, List<Long>> bySender = new HashMap<>();
            for (String line : raw) {
                String[] parts = line.split(" ");
                bySender.computeIfAbsent(parts[1], k -> new ArrayList<>()).add(Long.parseLong(parts[2]));
            }
            assertThat(bySender.get("yann")).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(range(500));
            assertThat(bySender.get("xavi")).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(range(500));
            List<Shown> shown = raw.stream().map(DelayedEndToEndIT::parse).toList();
            assertOnTime(shown, BURST_LATE_BOUND);
            report("two nodes, 1,000 due in one second", shown);
        }
    }

    private static void assertOnTime(List<Shown> shown, Duration bound) {
        assertThat(shown).allSatisfy(s -> {
            assertThat(s.atMillis()).as("message %d shown before it was due", s.n()).isGreaterThanOrEqualTo(s.dueMillis());
            assertThat(s.lateMillis()).as("message %d late", s.n()).isLessThanOrEqualTo(bound.toMillis());
        });
    }

    private static void report(String what, List<Shown> shown) {
        long[] late = shown.stream().mapToLong(Shown::lateMillis).sorted().toArray();
        System.out.printf("%s: %d shown once each; lateness p50 %d ms, max %d ms (wall clock, receiver process)%n",
                what, shown.size(), late[late.length / 2], late[late.length - 1]);
    }

    private static List<Long> range(long count) {
        List<Long> all = new ArrayList<>();
        for (long n = 1; n <= count; n++) {
            all.add(n);
        }
        return all;
    }

    private static List<Shown> awaitShown(JavaProcess receiver, int count, Duration within) {
        return awaitLines(receiver, "RECV ", count, within).stream().map(DelayedEndToEndIT::parse).toList();
    }

    /** "RECV sender n DUE due AT at BY who" */
    private static Shown parse(String line) {
        String[] p = line.split(" ");
        assertThat(p).as("a scheduled message's line: %s", line).hasSize(9);
        return new Shown(Long.parseLong(p[2]), Long.parseLong(p[4]), Long.parseLong(p[6]), p[8]);
    }

    private static List<String> awaitLines(JavaProcess process, String prefix, int count, Duration within) {
        org.awaitility.Awaitility.await(count + " lines " + prefix).atMost(within)
                .until(() -> lines(process, prefix).size() >= count);
        return lines(process, prefix);
    }

    private static List<String> lines(JavaProcess process, String prefix) {
        return process.transcript().lines().filter(l -> l.startsWith(prefix)).toList();
    }

    private static JavaProcess connected(JavaProcess client) throws InterruptedException {
        client.await("CONNECTED", Cluster.START);
        return client;
    }
}
