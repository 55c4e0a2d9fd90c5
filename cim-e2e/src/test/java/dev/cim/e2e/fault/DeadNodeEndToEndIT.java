package dev.cim.e2e.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.e2e.JavaProcess;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A node that dies is gone in seconds: the other nodes see its heartbeat stop, take its users for
 * offline and what waited for its answer for unanswered, so a message to one of its users is stored
 * for them at once, not a relay timeout later, and they get it at their next login elsewhere. Real
 * server jars on a Redis of the test's own; the presence of users set to outlive the test (60 s) and
 * relays to wait 30 s, so that only the heartbeat can make it quick.
 */
class DeadNodeEndToEndIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    /** The default node-ttl (4 s) and heartbeat (1 s), and a margin for a loaded 2-core machine. */
    private static final Duration SEEN_DEAD_WITHIN = Duration.ofSeconds(10);

    @Test
    void nodeSIGKILLed_theOtherSeesItDeadInSeconds_andAMessageToItsUserIsStoredAtOnce() throws Exception {
        try (Cluster cluster = new Cluster(false, 2, "everysec", "--cim.server.presence.ttl=60s",
                "--cim.server.presence.refresh-interval=20s", "--cim.server.limits.relay-timeout=30s")) {
            cluster.start();
            JavaProcess dave = cluster.receiver("dave", "127.0.0.1:" + cluster.port(1));
            dave.await("CONNECTED node-1", Cluster.START);
            JavaProcess erin = cluster.sender("erin", "127.0.0.1:" + cluster.port(0), "dave", 1, 1, 100);
            dave.await("RECV erin 1", WAIT); // routed from node 0 to node 1: each knows the other

            long killed = System.nanoTime();
            cluster.killServer(1);
            cluster.server(0).await("stopped answering their heartbeat: taken for dead", WAIT);
            Duration seen = Duration.ofNanos(System.nanoTime() - killed);
            JavaProcess again = cluster.sender("erin", "127.0.0.1:" + cluster.port(0), "dave", 2, 1, 100);
            long sent = System.nanoTime();
            again.await("ACK 2", WAIT);
            Duration confirmed = Duration.ofNanos(System.nanoTime() - sent);
            dave.kill(); // its client tries node 1 only; dave comes back on node 0
            JavaProcess back = cluster.receiver("dave", "127.0.0.1:" + cluster.port(0));
            back.await("RECV erin 2", WAIT);
            Duration delivered = Duration.ofNanos(System.nanoTime() - sent);

            assertThat(seen).as("node 1 seen dead after its SIGKILL").isLessThan(SEEN_DEAD_WITHIN);
            assertThat(confirmed).as("a message to its user confirmed (stored), not a 30 s relay timeout later")
                    .isLessThan(Duration.ofSeconds(10));
            System.out.printf("node SIGKILL: seen dead by the other after %d ms; a message to its user then "
                    + "confirmed in %d ms, and shown at the user's login on the other node %d ms after it was sent%n",
                    seen.toMillis(), confirmed.toMillis(), delivered.toMillis());
        }
    }

    /**
     * A node frozen (SIGSTOP) past its heartbeat's time to live is taken for dead: a message to its
     * user is stored at once and the frozen node poked over the bus. When it resumes (SIGCONT), the
     * user, who never logged out, shows the message once, from the inbox.
     */
    @Test
    void nodeSIGSTOPpedPastItsHeartbeat_isTakenForDead_andItsUserGetsTheMessageOnceWhenItResumes()
            throws Exception {
        try (Cluster cluster = new Cluster(false, 2, "everysec", "--cim.server.presence.ttl=60s",
                "--cim.server.presence.refresh-interval=20s", "--cim.server.limits.relay-timeout=30s",
                "--cim.server.idle-timeout=60s")) {
            cluster.start();
            JavaProcess gus = cluster.receiver("gus", "127.0.0.1:" + cluster.port(1));
            gus.await("CONNECTED node-1", Cluster.START);
            JavaProcess hal = cluster.sender("hal", "127.0.0.1:" + cluster.port(0), "gus", 1, 1, 100);
            gus.await("RECV hal 1", WAIT);

            long frozen = System.nanoTime();
            cluster.freezeServer(1);
            Duration seen;
            long thawed;
            try {
                cluster.server(0).await("stopped answering their heartbeat: taken for dead", WAIT);
                seen = Duration.ofNanos(System.nanoTime() - frozen);
                JavaProcess again = cluster.sender("hal", "127.0.0.1:" + cluster.port(0), "gus", 2, 1, 100);
                long sent = System.nanoTime();
                again.await("ACK 2", WAIT);
                assertThat(Duration.ofNanos(System.nanoTime() - sent))
                        .as("confirmed (stored) while node 1 is frozen, not a 30 s relay timeout later")
                        .isLessThan(Duration.ofSeconds(10));
            } finally {
                thawed = System.nanoTime();
                cluster.thawServer(1);
            }
            gus.await("RECV hal 2", WAIT);
            Duration shown = Duration.ofNanos(System.nanoTime() - thawed);
            JavaProcess last = cluster.sender("hal", "127.0.0.1:" + cluster.port(0), "gus", 3, 1, 100);
            last.await("ACK 3", WAIT);
            gus.await("RECV hal 3", WAIT); // node 1 counts as alive again: relayed to it
            assertThat(gus.transcript().lines().filter(line -> line.contains("RECV hal 2")).count())
                    .as("shown once").isEqualTo(1);
            assertThat(seen).as("node 1 seen dead after its SIGSTOP").isLessThan(SEEN_DEAD_WITHIN);
            System.out.printf("node SIGSTOP: seen dead by the other after %d ms; the message stored meanwhile shown "
                    + "once, %d ms after SIGCONT%n", seen.toMillis(), shown.toMillis());
        }
    }
}
