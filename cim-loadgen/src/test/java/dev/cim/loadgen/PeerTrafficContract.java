package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import dev.cim.loadgen.peer.PeerPool;
import dev.cim.loadgen.peer.PeerServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Part 1's traffic on the users of a real peer server, as the generator drives them: the closed loop
 * and a paced run account for every message as they do for cim, and count the server's acks. A test
 * class per peer starts the server through its script, as the generator does, and its users' pool
 * on two pacer loops ({@link #open}, from its {@code @BeforeAll}); these tests are inherited, and
 * both are closed after them. One such class runs at a time (the state is this class's).
 */
abstract class PeerTrafficContract {

    private static PeerServer server;
    private static PeerPool pool;
    private static List<? extends ChatUser> users;

    /** Logs in {@code count} users of {@code peerPool}, the users of {@code peer}; closes both after the tests. */
    static void open(PeerServer peer, PeerPool peerPool, int count) throws InterruptedException {
        server = peer;
        pool = peerPool;
        Opened<? extends ChatUser> opened = pool.open("t" + ProcessHandle.current().pid() + "-", count, Duration.ofSeconds(60));
        assertThat(opened.failed()).as(opened.firstFailure()).isZero();
        users = opened.clients();
    }

    @AfterAll
    static void close() {
        if (pool != null) {
            pool.close();
            assertThat(pool.dropped()).isZero();
        }
        if (server != null) {
            server.close();
            assertThat(server.isAlive()).isFalse();
        }
        pool = null;
        server = null;
        users = null;
    }

    /** How a user refuses a recipient of another kind: "(expected: an MQTT user, ...". */
    abstract String refusal();

    @Test
    void closedLoop_losesAndDuplicatesNothing_andCountsTheServersAcks() throws Exception {
        ClosedLoopRun.Result result = new ClosedLoopRun(new Pairs(users))
                .run(20, Duration.ofSeconds(1), Duration.ofSeconds(2), new CpuMeter(server.pid()));

        assertThat(result.perSecond()).isPositive();
        assertThat(result.ledger().received()).isPositive();
        assertThat(result.ledger().lost()).isZero();
        assertThat(result.ledger().duplicates()).isZero();
        assertThat(result.ledger().unknown()).isZero();
        assertThat(result.receipts().refused()).isZero();
        // every message's ack, to the traffic of its send, though some may come after the run
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(result.receipts().accepted()).isEqualTo(result.ledger().issued()));
        assertThat(result.receipts().toString()).contains(result.ledger().issued() + " accepted by the server");
        assertThat(result.cpu()).startsWith("CPU per message: server ").doesNotContain("unknown");
    }

    @Test
    void pacedRun_offersEveryMessageOnThePacerLoops_andMeasuresEachOnce() throws Exception {
        assertThat(users.stream().map(ChatUser::pacer).distinct()).hasSize(2);

        PacedRun.Result result = new PacedRun(new Pairs(users), "peer", 200, Duration.ofSeconds(1))
                .run(new CpuMeter(server.pid()));

        assertThat(result.notOffered()).isZero();
        assertThat(result.offered()).isEqualTo(200);
        assertThat(result.ledger().lost()).isZero();
        assertThat(result.ledger().duplicates()).isZero();
        assertThat(result.latency().count()).isEqualTo(200);
        assertThat(result.latency().p99()).isPositive();
    }

    @Test
    void aUserOfAnotherKind_isRefused() {
        ChatUser stranger = new ChatUser() {
            @Override
            public void send(ChatUser to, String text) {
            }

            @Override
            public void traffic(Traffic traffic) {
            }

            @Override
            public ScheduledExecutorService pacer() {
                return null;
            }
        };

        assertThatIllegalArgumentException().isThrownBy(() -> users.get(0).send(stranger, "c 0 0 0"))
                .withMessageContaining(refusal());
    }
}
