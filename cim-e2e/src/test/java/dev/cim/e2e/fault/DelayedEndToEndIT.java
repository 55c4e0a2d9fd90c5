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

    @Test
    void recurringEverySecond_serverKilledAndRestartedMidSeries_eachOccurrenceOnce_noneEarly() throws Exception {
        try (Cluster cluster = new Cluster(true, 1, "everysec")) {
            cluster.start();
            String at = cluster.addresses();
            JavaProcess receiver = connected(cluster.receiver("rhea", at));
            JavaProcess sender = connected(cluster.series("remi", at, "rhea", "1s", 60));
            sender.await("DONE", WAIT);
            sender.kill(); // the series is the server's alone from here
            awaitLines(receiver, "OCC ", 15, WAIT);

            cluster.killServer(0);
            cluster.startServer(0);

            org.awaitility.Awaitility.await("the series to its end").atMost(Duration.ofSeconds(60).plus(WAIT))
                    .until(() -> occurrences(receiver).stream().anyMatch(o -> o[0] == 60));
            List<long[]> shown = assertSeries(receiver, 60);
            long missed = shown.stream().mapToLong(o -> o[1]).sum();
            long[] late = shown.stream().mapToLong(o -> o[3] - o[2]).sorted().toArray();
            System.out.printf("recurring 1s x 60, server SIGKILL and restart: %d occurrences shown once each, %d "
                    + "missed during the outage and counted; lateness p50 %d ms, max %d ms%n", shown.size(), missed,
                    late[late.length / 2], late[late.length - 1]);
        }
    }

    @Test
    void recurringEverySecond_onTwoNodes_theNodeHoldingItKilled_theOtherGoesOn_eachOccurrenceOnce() throws Exception {
        // A lease of 3 s: the other node takes over a series due on the dead one 3 s after its time.
        try (Cluster cluster = new Cluster(false, 2, "everysec", "--cim.server.delays.lease=3s",
                "--cim.server.delays.scan-interval=1s")) {
            cluster.start();
            JavaProcess receiver = connected(cluster.receiver("sara", "127.0.0.1:" + cluster.port(1)));
            JavaProcess sender = connected(cluster.series("sven", "127.0.0.1:" + cluster.port(0), "sara", "1s", 40));
            sender.await("DONE", WAIT);
            sender.kill();
            awaitLines(receiver, "OCC ", 10, WAIT);

            cluster.killServer(0); // it held the series on its wheel

            org.awaitility.Awaitility.await("the series to its end").atMost(Duration.ofSeconds(40).plus(WAIT))
                    .until(() -> occurrences(receiver).stream().anyMatch(o -> o[0] == 40));
            List<long[]> shown = assertSeries(receiver, 40);
            System.out.printf("recurring 1s x 40 on two nodes, the holding node SIGKILLed: %d shown once each, %d "
                    + "missed and counted%n", shown.size(), shown.stream().mapToLong(o -> o[1]).sum());
        }
    }

    @Test
    void twoHundredWhenOnline_serverKilledAndRestarted_allShownOnceAtTheRecipientsLogin() throws Exception {
        try (Cluster cluster = new Cluster(true, 1, "everysec", "--cim.server.delays.max-per-user=500")) {
            cluster.start();
            String at = cluster.addresses();
            connected(cluster.receiver("olga", at)).kill(); // olga has an account, and is gone
            JavaProcess sender = connected(cluster.onliner("oleg", at, "olga", 200));
            sender.await("DONE", WAIT);
            assertThat(lines(sender, "SCHEDULED")).hasSize(200);

            cluster.killServer(0);
            cluster.startServer(0);
            JavaProcess receiver = connected(cluster.receiver("olga", at));

            List<String> raw = awaitLines(receiver, "RECV ", 200, WAIT);
            assertThat(raw).extracting(line -> Long.parseLong(line.split(" ")[2])).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(range(200));
            System.out.printf("200 'when online' messages, server SIGKILL and restart, then the login: %d shown once "
                    + "each%n", raw.size());
        }
    }

    /**
     * Every occurrence of a series of {@code times} was shown once, or counted as missed by the next
     * one shown (the server was down at its time): together they are the whole series, in order,
     * none shown early. Returns the occurrences shown.
     */
    private static List<long[]> assertSeries(JavaProcess receiver, int times) {
        List<long[]> shown = occurrences(receiver);
        assertThat(shown).extracting(o -> o[0]).doesNotHaveDuplicates().isSorted();
        assertThat(shown.get(shown.size() - 1)[0]).isEqualTo(times);
        long covered = 0;
        for (long[] o : shown) {
            assertThat(o[0]).as("occurrence %d follows the ones it says were missed", o[0])
                    .isEqualTo(covered + 1 + o[1]);
            covered = o[0];
            assertThat(o[3]).as("occurrence %d shown before it was due", o[0]).isGreaterThanOrEqualTo(o[2]);
        }
        return shown;
    }

    /** The occurrences shown: {occurrence, missed, due, shown at}, in the order shown. */
    private static List<long[]> occurrences(JavaProcess receiver) {
        return lines(receiver, "OCC ").stream().map(line -> {
            String[] p = line.split(" ");
            return new long[] {Long.parseLong(p[1]), Long.parseLong(p[3]), Long.parseLong(p[5]), Long.parseLong(p[7])};
        }).toList();
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
