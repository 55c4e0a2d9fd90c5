package dev.cim.e2e.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.e2e.JavaProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Three server nodes on a real Redis Cluster (six redis-server processes made by
 * {@code bin/redis-cluster}, three masters with a replica each), users spread over the nodes: a
 * private message across nodes, an offline user's inbox read at a login on another node, and
 * scheduled messages registered on one node, sent to a user on another, each once. The keys of one
 * user, one group, one scheduled-message bucket share a hash slot; these cases take them across the
 * cluster's masters.
 */
class RedisClusterEndToEndIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void threeNodesOnARedisCluster_privateInboxAndScheduled_acrossNodes_onceEach() throws Exception {
        try (Cluster cluster = Cluster.onRedisCluster(3)) {
            cluster.start();
            JavaProcess bob = connected(cluster.receiver("bob", address(cluster, 1)));
            connected(cluster.receiver("carol", address(cluster, 2))).kill(); // carol has an account, and is gone

            JavaProcess toBob = connected(cluster.sender("alice", address(cluster, 0), "bob", 1, 50, 100));
            toBob.await("DONE", WAIT);
            JavaProcess toCarol = connected(cluster.sender("alice", address(cluster, 0), "carol", 51, 50, 100));
            toCarol.await("DONE", WAIT);
            Instant first = Instant.now().plusSeconds(6);
            JavaProcess dave = connected(cluster.scheduler("dave", address(cluster, 2), "bob", 30, first,
                    first.plusSeconds(3)));
            dave.await("DONE", WAIT);
            dave.kill(); // the scheduled messages are the servers' to send

            JavaProcess carol = connected(cluster.receiver("carol", address(cluster, 1)));

            assertThat(numbers(carol, "RECV alice ", 50)).containsExactlyElementsOf(range(51, 100));
            assertThat(numbers(bob, "RECV alice ", 50)).containsExactlyElementsOf(range(1, 50));
            assertThat(numbers(bob, "RECV dave ", 30)).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(range(1, 30));
            assertThat(lines(toBob, "ACK ")).hasSize(50);
            assertThat(lines(toCarol, "ACK ")).hasSize(50);
        }
    }

    private static String address(Cluster cluster, int node) {
        return "127.0.0.1:" + cluster.port(node);
    }

    /** The numbers of the {@code count} messages {@code receiver} showed with {@code prefix}, in order. */
    private static List<Long> numbers(JavaProcess receiver, String prefix, int count) {
        org.awaitility.Awaitility.await(count + " lines " + prefix).atMost(WAIT)
                .until(() -> lines(receiver, prefix).size() >= count);
        return lines(receiver, prefix).stream().map(line -> Long.parseLong(line.substring(prefix.length()).split(" ")[0]))
                .toList();
    }

    private static List<String> lines(JavaProcess process, String prefix) {
        return process.transcript().lines().filter(l -> l.startsWith(prefix)).toList();
    }

    private static List<Long> range(long from, long to) {
        List<Long> all = new ArrayList<>();
        for (long n = from; n <= to; n++) {
            all.add(n);
        }
        return all;
    }

    private static JavaProcess connected(JavaProcess client) throws InterruptedException {
        client.await("CONNECTED", Cluster.START);
        return client;
    }
}
