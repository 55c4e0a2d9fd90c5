package dev.cim.e2e.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cim.e2e.JavaProcess;
import dev.cim.testkit.RedisCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Numbered traffic between real processes (server jars, clients of the client library in JVMs of
 * their own, real Redis) while faults are injected, each several times; every case counts what was
 * confirmed, shown, lost, duplicated, shown out of order and refused ({@link Ledger}), and must come
 * out clean: nothing lost, duplicated or out of order, and no refusal but those the case expects.
 * The table is printed at the end and written to {@code target/fault-injection.md}.
 */
class FaultInjectionIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final double RATE = 100; // messages per second per sender
    private static final long ENDLESS = 1_000_000;
    private static final List<String> rows = new ArrayList<>();

    @AfterAll
    static void table() throws IOException {
        String table = String.join("\n", List.of(
                "| fault | times | confirmed | shown | lost | duplicated | out of order | not confirmed, shown "
                        + "| shown again after a kill | refused | refused unexpectedly |",
                "|---|---|---|---|---|---|---|---|---|---|---|")) + "\n" + String.join("\n", rows) + "\n";
        System.out.println("Fault injection:\n" + table);
        Path target = Path.of(System.getProperty("cim.project.dir", "..")).resolve("cim-e2e/target");
        Files.createDirectories(target);
        Files.writeString(target.resolve("fault-injection.md"), table, StandardCharsets.UTF_8);
    }

    /**
     * Records the case's row and asserts it came out clean; one that did not leaves every process'
     * output in {@code target/fault-outputs/}, to read why. Refusals (told to their senders, so not
     * lost) are printed with their reasons, and those the case did not expect fail it.
     */
    private static void checked(Cluster cluster, String fault, int times, Ledger ledger) throws IOException {
        Ledger.Counts counts = ledger.counts();
        record(fault, times, counts);
        if (counts.refused() > 0) {
            System.out.println("Refused in '" + fault + "': " + cluster.clientLines("FAIL "));
        }
        if (!counts.clean()) {
            cluster.keepOutputs(fault);
        }
        assertThat(ledger.unexpectedRefusals()).as("refusals in '%s' the case did not expect", fault).isEmpty();
        assertThat(counts.clean()).as("%s", counts).isTrue();
    }

    private static void record(String fault, int times, Ledger.Counts c) {
        rows.add(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |", fault, times,
                c.confirmed(), c.shown(), c.lost(), c.duplicated(), c.outOfOrder(), c.unconfirmedShown(),
                c.shownAgainAfterKill(), c.refused(), c.unexpectedlyRefused()));
    }

    @Test
    void senderKilledMidStream_andStartedAgain() throws Exception {
        try (Cluster cluster = new Cluster(true, 1, "everysec")) {
            cluster.start();
            String at = cluster.addresses();
            JavaProcess receiver = connected(cluster.receiver("r1", at));
            Ledger ledger = new Ledger();
            long next = 1;
            for (int round = 0; round < 3; round++) {
                JavaProcess sender = connected(cluster.sender("s1", at, "r1", next, ENDLESS, RATE));
                awaitAcks(sender, 50);
                sender.kill(); // SIGKILL mid-stream
                ledger.sender(sender.transcript());
                next = highestSent(sender.transcript()) + 1;
            }
            JavaProcess last = connected(cluster.sender("s1", at, "r1", next, 100, RATE));
            last.await("DONE", WAIT);
            ledger.sender(last.transcript());
            settle(cluster, ledger, List.of(receiver));
            checked(cluster, "sender client SIGKILL, restarted", 3, ledger);
        }
    }

    @Test
    void receiverKilledMidStream_andStartedAgain() throws Exception {
        try (Cluster cluster = new Cluster(true, 1, "everysec")) {
            cluster.start();
            String at = cluster.addresses();
            List<JavaProcess> receivers = new ArrayList<>();
            receivers.add(connected(cluster.receiver("r2", at)));
            JavaProcess sender = connected(cluster.sender("s2", at, "r2", 1, 1200, RATE));
            for (int round = 0; round < 3; round++) {
                JavaProcess current = receivers.get(receivers.size() - 1);
                current.await(line -> line.startsWith("RECV"), WAIT, "messages");
                awaitLines(current, "RECV", 50);
                current.kill(); // SIGKILL: whatever it showed and had not acknowledged comes again
                receivers.add(connected(cluster.receiver("r2", at))); // the same user, the same state directory
            }
            sender.await("DONE", Duration.ofSeconds(120));
            Ledger ledger = new Ledger();
            ledger.sender(sender.transcript());
            settle(cluster, ledger, receivers);
            checked(cluster, "recipient client SIGKILL, restarted (inbox replay)", 3, ledger);
        }
    }

    @Test
    void serverKilled_andStartedAgainOnTheSameDataDirectory() throws Exception {
        try (Cluster cluster = new Cluster(true, 1, "everysec")) {
            cluster.start();
            String at = cluster.addresses();
            JavaProcess receiver = connected(cluster.receiver("r3", at));
            JavaProcess sender = connected(cluster.sender("s3", at, "r3", 1, 1500, RATE));
            for (int round = 0; round < 3; round++) {
                awaitLines(sender, "ACK", 100 * (round + 1));
                cluster.killServer(0); // its embedded Redis goes with it (the watchdog), writing its file
                cluster.startServer(0);
            }
            sender.await("DONE", Duration.ofSeconds(180));
            Ledger ledger = new Ledger();
            ledger.sender(sender.transcript());
            settle(cluster, ledger, List.of(receiver));
            checked(cluster, "server SIGKILL, restarted on its data directory", 3, ledger);
        }
    }

    @Test
    void redisKilled_withFsyncAlways_andStartedAgain() throws Exception {
        try (Cluster cluster = new Cluster(false, 1, "always")) {
            cluster.start();
            String at = cluster.addresses();
            JavaProcess receiver = connected(cluster.receiver("r4", at));
            JavaProcess sender = connected(cluster.sender("s4", at, "r4", 1, 1200, RATE));
            for (int round = 0; round < 2; round++) {
                awaitLines(sender, "ACK", 100 * (round + 1));
                cluster.killRedis();
                awaitLines(sender, "SENT", highestSentCount(sender) + 100); // traffic goes on meanwhile
                cluster.startRedis();
            }
            sender.await("DONE", Duration.ofSeconds(120));
            // While Redis is down, a message it cannot store is refused for now and the library sends
            // it again until it is stored (README, Guarantees): the sender sees no refusal.
            Ledger ledger = new Ledger();
            ledger.sender(sender.transcript());
            settle(cluster, ledger, List.of(receiver));
            checked(cluster, "Redis SIGKILL (fsync always), restarted", 2, ledger);
        }
    }

    @Test
    void serverFrozenLongerThanTheIdleTimeout_andThawed() throws Exception {
        try (Cluster cluster = new Cluster(true, 1, "everysec")) {
            cluster.start();
            String at = cluster.addresses();
            JavaProcess receiver = connected(cluster.receiver("r5", at));
            JavaProcess sender = connected(cluster.sender("s5", at, "r5", 1, 1200, RATE));
            for (int round = 0; round < 2; round++) {
                awaitLines(sender, "ACK", 100 * (round + 1));
                cluster.freezeServer(0);
                int sentBefore = highestSentCount(sender);
                awaitLines(sender, "SENT", sentBefore + 500); // 5 s frozen: longer than the 3 s idle timeout
                cluster.thawServer(0);
            }
            sender.await("DONE", Duration.ofSeconds(120));
            Ledger ledger = new Ledger();
            ledger.sender(sender.transcript());
            settle(cluster, ledger, List.of(receiver));
            checked(cluster, "server SIGSTOP > idle timeout, SIGCONT", 2, ledger);
        }
    }

    @Test
    void connectionsCutByTheNetwork() throws Exception {
        try (Cluster cluster = new Cluster(true, 1, "everysec")) {
            cluster.start();
            try (TcpProxy proxy = new TcpProxy(cluster.port(0))) {
                String at = "127.0.0.1:" + proxy.port();
                JavaProcess receiver = connected(cluster.receiver("r6", at));
                JavaProcess sender = connected(cluster.sender("s6", at, "r6", 1, 1500, RATE));
                int cuts = 5;
                for (int round = 0; round < cuts; round++) {
                    awaitLines(sender, "ACK", 100 * (round + 1));
                    // Both clients are connected through the proxy (each at its login number round + 1):
                    // the cut closes both ends of both connections, and each client logs in again.
                    assertThat(proxy.cutAll()).as("sockets the proxy closed in cut %d", round + 1)
                            .isGreaterThanOrEqualTo(4);
                    awaitLines(sender, "CONNECTED", round + 2);
                    awaitLines(receiver, "CONNECTED", round + 2);
                }
                sender.await("DONE", Duration.ofSeconds(120));
                Ledger ledger = new Ledger();
                ledger.sender(sender.transcript());
                settle(cluster, ledger, List.of(receiver));
                checked(cluster, "connections cut (TCP proxy)", cuts, ledger);
            }
        }
    }

    @Test
    void oneOfTwoNodesKilled_itsUsersMoveToTheOther() throws Exception {
        try (Cluster cluster = new Cluster(false, 2, "everysec")) {
            cluster.start();
            String senderSide = "127.0.0.1:" + cluster.port(0) + ",127.0.0.1:" + cluster.port(1);
            String receiverSide = "127.0.0.1:" + cluster.port(1) + ",127.0.0.1:" + cluster.port(0);
            JavaProcess receiver = connected(cluster.receiver("r7", receiverSide));
            JavaProcess sender = connected(cluster.sender("s7", senderSide, "r7", 1, 1200, RATE));
            awaitLines(sender, "ACK", 100);
            cluster.killServer(0); // the sender's node
            awaitLines(sender, "CONNECTED node-1", 1);
            awaitLines(sender, "ACK", 300);
            cluster.startServer(0);
            cluster.killServer(1); // now the recipient's (and the sender's) node
            awaitLines(sender, "ACK", 500);
            sender.await("DONE", Duration.ofSeconds(120));
            Ledger ledger = new Ledger();
            ledger.sender(sender.transcript());
            settle(cluster, ledger, List.of(receiver));
            checked(cluster, "two nodes, one SIGKILL (twice), users move to the other", 2, ledger);
        }
    }

    /**
     * Two nodes on a Redis Cluster of three masters with a replica each: a sender on one node streams
     * to a receiver on the other while a master holding part of the keys is SIGKILLed, twice (each
     * time a different one, the killed node started again to rejoin as a replica), and a client logs
     * in during each failover: it waits the failover out and gets in, nobody exits. A send the store
     * could not take while a master was down is refused for now and sent again by the library, so
     * the sender sees no refusal; nothing confirmed may be lost, shown twice or out of order. Run with
     * {@code replicas-to-ack} 0 (a message confirmed just before its master died may be lost, README)
     * and 1 (confirmed only once a replica has it).
     */
    @ParameterizedTest(name = "replicas-to-ack {0}")
    @ValueSource(ints = {0, 1})
    void redisClusterMasterKilled_clientsLoggingInDuringTheFailoverGetIn(int replicasToAck) throws Exception {
        try (Cluster cluster = Cluster.onRedisCluster(2, "--cim.server.redis.replicas-to-ack=" + replicasToAck)) {
            cluster.start();
            RedisCluster redis = cluster.redisCluster();
            JavaProcess receiver = connected(cluster.receiver("r9", "127.0.0.1:" + cluster.port(1)));
            JavaProcess sender = connected(cluster.sender("s9", "127.0.0.1:" + cluster.port(0), "r9", 1, 1500, RATE));
            List<Integer> killed = new ArrayList<>();
            for (int round = 1; round <= 2; round++) {
                awaitAcks(sender, 300 * round);
                int master = redis.masters().stream().filter(p -> !killed.contains(p)).findFirst().orElseThrow();
                redis.kill(master);
                killed.add(master);
                JavaProcess late = cluster.receiver("late" + round, "127.0.0.1:" + cluster.port(round % 2));
                redis.awaitOk(WAIT);
                connected(late);
                redis.restart(); // the killed master comes back as a replica
            }
            sender.await("DONE", Duration.ofSeconds(120));
            Ledger ledger = new Ledger(); // refused for now during the failover, sent again by the library
            ledger.sender(sender.transcript());
            settle(cluster, ledger, List.of(receiver));
            checked(cluster, "Redis Cluster, replicas-to-ack " + replicasToAck + ", a master SIGKILL (a different one "
                    + "each time), clients log in during the failover", 2, ledger);
        }
    }

    /**
     * Three nodes on a Redis Cluster with users on each: three numbered streams, each from a user on
     * one node to a user on the next, while node 0 is SIGKILLed and started again, node 1 is frozen
     * (SIGSTOP) past its heartbeat's time to live and thawed, and node 2 is SIGKILLed and started
     * again. Each stream's confirmed messages must be shown once, in order.
     */
    @Test
    void threeNodesOnARedisCluster_nodesKilledAndOneFrozen_streamsBetweenAllNodes() throws Exception {
        try (Cluster cluster = Cluster.onRedisCluster(3)) {
            cluster.start();
            List<JavaProcess> senders = new ArrayList<>();
            List<JavaProcess> receivers = new ArrayList<>();
            for (int node = 0; node < 3; node++) {
                receivers.add(connected(cluster.receiver("r12" + node, startingAt(cluster, (node + 1) % 3))));
            }
            for (int node = 0; node < 3; node++) {
                senders.add(connected(cluster.sender("s12" + node, startingAt(cluster, node), "r12" + node, 1, 900,
                        RATE / 2)));
            }
            JavaProcess first = senders.get(0);
            awaitAcks(first, 100);
            cluster.killServer(0);
            cluster.startServer(0);
            awaitAcks(first, 300);
            cluster.freezeServer(1);
            // Frozen until the other nodes take it for dead (its heartbeat's node-ttl, 4 s), then thawed.
            cluster.server(2).await("[node-1] stopped answering their heartbeat: taken for dead", WAIT);
            cluster.thawServer(1);
            awaitAcks(first, 500);
            cluster.killServer(2);
            cluster.startServer(2);
            for (JavaProcess sender : senders) {
                sender.await("DONE", Duration.ofSeconds(120));
            }
            List<Ledger> ledgers = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Ledger ledger = new Ledger();
                ledger.sender(senders.get(i).transcript());
                settle(cluster, ledger, List.of(receivers.get(i)));
                ledgers.add(ledger);
            }
            Ledger.Counts total = Ledger.sum(ledgers);
            record("three nodes on a Redis Cluster, streams between all of them: a node SIGKILL (twice), a node SIGSTOP "
                    + "past its heartbeat", 3, total);
            if (!total.clean()) {
                cluster.keepOutputs("cluster-nodes");
            }
            // Order is counted and reported, not held to 0: a receiver that moves off the frozen node
            // gets what that connection had not acknowledged when the node resumes, after newer ones
            // (a CI run of 161707b showed 4 so: README, "Across nodes, order has two limits").
            assertThat(total.cleanButOrder()).as("%s", total).isTrue();
        }
    }

    /** Every node's address, node {@code first}'s first: where a client of that node fails over to. */
    private static String startingAt(Cluster cluster, int first) {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            addresses.add("127.0.0.1:" + cluster.port((first + i) % 3));
        }
        return String.join(",", addresses);
    }

    /**
     * A group of 50 members on two nodes: three senders (members too) send numbered messages to it,
     * 45 members listen in two crowds (a process each, one per node), two more alone; one of those
     * is killed and started again, twice, and then the first node is killed and started again. Every
     * member must show every confirmed message of every sender once, in each sender's order.
     */
    @Test
    void groupOfFiftyOnTwoNodes_aMembersClientAndANodeKilled() throws Exception {
        try (Cluster cluster = new Cluster(false, 2, "everysec")) {
            cluster.start();
            String node0 = "127.0.0.1:" + cluster.port(0) + ",127.0.0.1:" + cluster.port(1);
            String node1 = "127.0.0.1:" + cluster.port(1) + ",127.0.0.1:" + cluster.port(0);
            List<String> senders = List.of("gs1", "gs2", "gs3");
            JavaProcess crowd0 = cluster.members("ga", 22, node0);
            JavaProcess crowd1 = cluster.members("gb", 23, node1);
            awaitLines(crowd0, "CONNECTED", 22);
            awaitLines(crowd1, "CONNECTED", 23);
            List<JavaProcess> solo = new ArrayList<>(List.of(connected(cluster.receiver("gm1", node0))));
            JavaProcess other = connected(cluster.receiver("gm2", node1));
            List<String> members = new ArrayList<>(senders.subList(1, 3));
            for (int i = 1; i <= 22; i++) {
                members.add("ga" + i);
            }
            for (int i = 1; i <= 23; i++) {
                members.add("gb" + i);
            }
            members.addAll(List.of("gm1", "gm2"));
            GroupMaker.create(cluster.port(0), senders, "fault", members);
            members.add(0, senders.get(0)); // the owner is a member too: every one of the 50 is checked

            List<JavaProcess> sending = new ArrayList<>();
            for (int i = 0; i < senders.size(); i++) {
                sending.add(connected(cluster.sender(senders.get(i), i % 2 == 0 ? node0 : node1, "#fault", 1, 400,
                        RATE / 2)));
            }
            for (int round = 0; round < 2; round++) {
                JavaProcess current = solo.get(solo.size() - 1);
                awaitLines(current, "RECV", 50);
                current.kill(); // a member's client: what it showed and had not acknowledged comes again
                solo.add(connected(cluster.receiver("gm1", node0)));
            }
            awaitLines(sending.get(0), "ACK", 250);
            cluster.killServer(0); // half the members, and two senders, move to the other node
            cluster.startServer(0);
            for (JavaProcess sender : sending) {
                sender.await("DONE", Duration.ofSeconds(120));
            }

            // One ledger per member and sender: each member must show each sender's confirmed messages.
            AtomicReference<Map<String, Ledger>> latest = new AtomicReference<>(Map.of());
            try {
                await("every confirmed message shown at every member").atMost(WAIT).until(() -> {
                    latest.set(groupLedgers(senders, members, sending, crowd0, crowd1, solo, other));
                    return latest.get().values().stream().allMatch(Ledger::allShown);
                });
            } catch (ConditionTimeoutException e) {
                cluster.keepOutputs("group");
                throw new AssertionError("not every confirmed message shown at every member within " + WAIT + ": "
                        + notShown(latest.get()), e);
            }
            Map<String, Ledger> settled = groupLedgers(senders, members, sending, crowd0, crowd1, solo, other);
            Ledger.Counts total = Ledger.sum(List.copyOf(settled.values()));
            record("group of 50 on two nodes: a member's client SIGKILL (twice), a node SIGKILL (counted per member)",
                    3, total);
            if (!total.clean()) {
                cluster.keepOutputs("group");
            }
            assertThat(total.clean()).as("%s", total).isTrue();
        }
    }

    /**
     * A ledger for each member and sender, keyed "sender to member", from what the processes printed:
     * the crowds' lines name their member, the lone members' and the senders' do not (they are their
     * own).
     */
    private static Map<String, Ledger> groupLedgers(List<String> senders, List<String> members,
            List<JavaProcess> sending, JavaProcess crowd0, JavaProcess crowd1, List<JavaProcess> solo,
            JavaProcess other) {
        Map<String, Ledger> ledgers = new LinkedHashMap<>();
        String crowds = crowd0.transcript() + "\n" + crowd1.transcript();
        for (int s = 0; s < senders.size(); s++) {
            String sender = senders.get(s);
            for (String member : members) {
                if (member.equals(sender)) {
                    continue;
                }
                Ledger ledger = new Ledger();
                ledger.sender(sending.get(s).transcript());
                if (member.equals("gm1")) {
                    solo.forEach(process -> ledger.receiver(from(process.transcript(), sender)));
                } else if (member.equals("gm2")) {
                    ledger.receiver(from(other.transcript(), sender));
                } else if (senders.contains(member)) {
                    ledger.receiver(from(sending.get(senders.indexOf(member)).transcript(), sender));
                } else {
                    ledger.receiver(from(ofMember(crowds, member), sender));
                }
                ledgers.put(sender + " to " + member, ledger);
            }
        }
        return ledgers;
    }

    /** Which member misses which of a sender's confirmed messages: the count and the first few numbers. */
    private static String notShown(Map<String, Ledger> ledgers) {
        List<String> misses = new ArrayList<>();
        ledgers.forEach((pair, ledger) -> {
            List<Long> missing = ledger.notShown();
            if (!missing.isEmpty()) {
                misses.add(pair + ": " + missing.size() + " of " + ledger.confirmed().size() + ", the first "
                        + missing.subList(0, Math.min(10, missing.size())));
            }
        });
        return misses.isEmpty() ? "none missing at the last look" : String.join("; ", misses);
    }

    /** The "RECV member sender n" lines of {@code member}, as "RECV sender n". */
    private static String ofMember(String transcript, String member) {
        StringBuilder lines = new StringBuilder();
        String prefix = "RECV " + member + " ";
        for (String line : transcript.split("\n")) {
            if (line.startsWith(prefix)) {
                lines.append("RECV ").append(line.substring(prefix.length())).append('\n');
            }
        }
        return lines.toString();
    }

    /** The "RECV sender n" lines of {@code sender}. */
    private static String from(String transcript, String sender) {
        StringBuilder lines = new StringBuilder();
        String prefix = "RECV " + sender + " ";
        for (String line : transcript.split("\n")) {
            if (line.startsWith(prefix)) {
                lines.append(line).append('\n');
            }
        }
        return lines.toString();
    }

    // Helpers.

    private static JavaProcess connected(JavaProcess client) throws InterruptedException {
        client.await("CONNECTED", Cluster.START);
        return client;
    }

    /** Waits until {@code process} has printed at least {@code count} lines starting with {@code prefix}. */
    private static void awaitLines(JavaProcess process, String prefix, int count) {
        await(count + " lines '" + prefix + "'").atMost(Duration.ofSeconds(120))
                .until(() -> lines(process.transcript(), prefix) >= count);
    }

    private static void awaitAcks(JavaProcess sender, int count) {
        awaitLines(sender, "ACK", count);
    }

    private static int lines(String transcript, String prefix) {
        int n = 0;
        for (String line : transcript.split("\n")) {
            if (line.startsWith(prefix)) {
                n++;
            }
        }
        return n;
    }

    private static int highestSentCount(JavaProcess sender) {
        return lines(sender.transcript(), "SENT");
    }

    private static long highestSent(String transcript) {
        long highest = 0;
        for (String line : transcript.split("\n")) {
            if (line.startsWith("SENT ")) {
                highest = Math.max(highest, Long.parseLong(line.substring(5).trim()));
            }
        }
        return highest;
    }

    /**
     * Waits until every confirmed message has been shown by one of {@code receivers}, then reads what
     * they showed. One that never comes fails the case with the numbers not shown, and leaves every
     * process' output in {@code target/fault-outputs/}.
     */
    private static void settle(Cluster cluster, Ledger ledger, List<JavaProcess> receivers) throws IOException {
        AtomicReference<List<Long>> missing = new AtomicReference<>(List.of());
        try {
            await("every confirmed message shown").atMost(WAIT).until(() -> {
                Ledger probe = new Ledger();
                probe.confirmed().addAll(ledger.confirmed());
                receivers.forEach(r -> probe.receiver(r.transcript()));
                missing.set(probe.notShown());
                return missing.get().isEmpty();
            });
        } catch (ConditionTimeoutException e) {
            List<Long> notShown = missing.get();
            String name = "not shown to " + receivers.stream().map(JavaProcess::name).toList();
            cluster.keepOutputs(name);
            throw new AssertionError(notShown.size() + " of " + ledger.confirmed().size() + " confirmed messages "
                    + name + " within " + WAIT + ", the first: " + notShown.subList(0, Math.min(20, notShown.size())), e);
        }
        receivers.forEach(r -> ledger.receiver(r.transcript()));
    }
}
