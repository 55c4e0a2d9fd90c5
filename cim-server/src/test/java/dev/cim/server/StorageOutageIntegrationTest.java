package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cim.client.core.CimClient;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.Recorder;
import dev.cim.client.core.SendReceipt;
import dev.cim.server.redis.embedded.RedisExecutable;
import dev.cim.server.support.ExternalRedis;
import dev.cim.server.support.RawRedis;
import dev.cim.server.support.RedisFixture;
import dev.cim.server.support.TestServer;
import dev.cim.testkit.Ports;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The server's Redis stops taking writes for a few seconds (as while a replica is promoted), with a
 * real server, a real Redis ({@code CLIENT PAUSE ... WRITE}) and the client library over TCP: the
 * messages sent meanwhile are refused for now, sent again by the library under the same ids, stored
 * once the writes resume, and read by their recipient in order, once.
 */
class StorageOutageIntegrationTest {

    @RegisterExtension
    static final RedisFixture redis = new RedisFixture();

    private TestServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private CimClient online(String user, Recorder recorder) {
        CimClient client = server.client(user, recorder);
        client.connect().join();
        return client;
    }

    @Test
    void messagesSentWhileRedisTakesNoWrites_areSentAgainByTheLibrary_storedOnce_inOrder() throws Exception {
        // Commands time out well within the pause, so the stores fail while it lasts.
        server = TestServer.onRedis(redis.server(), "--spring.data.redis.timeout=400ms",
                "--cim.server.node-id=outage-node");
        online("bob", new Recorder()).close(); // bob's account; he is away from now on
        CimClient alice = online("alice", new Recorder());

        RawRedis.authenticated(redis.server().port(), redis.server().password(), "CLIENT", "PAUSE", "3000", "WRITE");
        List<CompletableFuture<SendReceipt>> sent = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sent.add(alice.send(Recipient.user("bob"), "m" + i));
        }

        for (CompletableFuture<SendReceipt> receipt : sent) {
            assertThat(receipt).as("refused while Redis paused, then sent again by the library")
                    .succeedsWithin(Duration.ofSeconds(30))
                    .extracting(SendReceipt::outcome).isEqualTo(SendReceipt.Outcome.STORED);
        }
        Recorder bob = new Recorder();
        online("bob", bob);
        bob.awaitMessages(5);
        assertThat(bob.texts()).containsExactly("m0", "m1", "m2", "m3", "m4");
    }

    /**
     * {@code replicas-to-ack=1} on a real master with one real replica: a message is confirmed once the
     * replica has it; with the replica gone, the messages sent are not confirmed (refused for now and
     * sent again by the library) until it is back, and none is lost, duplicated or reordered.
     */
    @Test
    void withReplicasToAck_aMessageIsConfirmedOnlyOnceAReplicaHasIt(@TempDir Path dir) throws Exception {
        RedisExecutable executable = RedisExecutable.resolve("").executable();
        int masterPort = Ports.free();
        int replicaPort = Ports.free();
        String replicaConfig = "port %d\nbind 127.0.0.1\nreplicaof 127.0.0.1 %d\n".formatted(replicaPort, masterPort);
        try (ExternalRedis master = ExternalRedis.start(executable, dir.resolve("master"),
                "port %d\nbind 127.0.0.1\n".formatted(masterPort))) {
            ExternalRedis replica = ExternalRedis.start(executable, dir.resolve("replica"), replicaConfig);
            try {
                awaitReplicas(masterPort, 1);
                server = TestServer.onRedis(masterPort, "--cim.server.redis.replicas-to-ack=1",
                        "--cim.server.redis.replicas-ack-timeout=300ms", "--cim.server.node-id=replicated-node");
                online("bob", new Recorder()).close();
                CimClient alice = online("alice", new Recorder());
                assertThat(alice.send(Recipient.user("bob"), "m0")).succeedsWithin(Duration.ofSeconds(10))
                        .extracting(SendReceipt::outcome).isEqualTo(SendReceipt.Outcome.STORED);

                replica.close();
                awaitReplicas(masterPort, 0);
                CompletableFuture<SendReceipt> m1 = alice.send(Recipient.user("bob"), "m1");
                CompletableFuture<SendReceipt> m2 = alice.send(Recipient.user("bob"), "m2");
                await("not confirmed while no replica has them").during(Duration.ofMillis(1500))
                        .atMost(Duration.ofSeconds(5)).until(() -> !m1.isDone() && !m2.isDone());

                replica = ExternalRedis.start(executable, dir.resolve("replica"), replicaConfig);
                assertThat(m1).succeedsWithin(Duration.ofSeconds(30)).extracting(SendReceipt::outcome)
                        .isEqualTo(SendReceipt.Outcome.STORED);
                assertThat(m2).succeedsWithin(Duration.ofSeconds(30));
                Recorder bob = new Recorder();
                online("bob", bob);
                bob.awaitMessages(3);
                assertThat(bob.texts()).containsExactly("m0", "m1", "m2");
            } finally {
                if (server != null) {
                    server.close();
                    server = null;
                }
                replica.close();
            }
        }
    }

    /** Waits until {@code count} replicas are connected to the Redis at {@code port} (WAIT with nothing written). */
    private static void awaitReplicas(int port, int count) {
        await().atMost(Duration.ofSeconds(30)).until(() -> RawRedis.command(port, "WAIT", "0", "0").equals(":" + count));
    }
}
