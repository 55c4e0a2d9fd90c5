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
import dev.cim.server.support.TestServer;
import dev.cim.testkit.Ports;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Redis with Sentinel, all real processes: a master, its replica and one Sentinel, and a server given
 * nothing but Spring Boot's Sentinel settings. The master is stopped; Sentinel promotes the replica;
 * the messages sent meanwhile are refused for now, sent again by the library, and read by their
 * recipient in order, once.
 */
class SentinelIntegrationTest {

    @Test
    void onSentinel_theServerFollowsTheFailover_andTheMessagesSentMeanwhileArrive(@TempDir Path dir)
            throws Exception {
        RedisExecutable executable = RedisExecutable.resolve("").executable();
        int masterPort = Ports.free();
        int replicaPort = Ports.free();
        int sentinelPort = Ports.free();
        ExternalRedis master = ExternalRedis.start(executable, dir.resolve("master"),
                "port %d\nbind 127.0.0.1\n".formatted(masterPort));
        try (ExternalRedis replica = ExternalRedis.start(executable, dir.resolve("replica"),
                "port %d\nbind 127.0.0.1\nreplicaof 127.0.0.1 %d\n".formatted(replicaPort, masterPort))) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> RawRedis.command(masterPort, "WAIT", "0", "0").equals(":1"));
            try (ExternalRedis sentinel = ExternalRedis.startSentinel(executable, dir.resolve("sentinel"), """
                    port %d
                    bind 127.0.0.1
                    sentinel monitor cim 127.0.0.1 %d 1
                    sentinel down-after-milliseconds cim 1000
                    sentinel failover-timeout cim 10000
                    """.formatted(sentinelPort, masterPort));
                    TestServer server = TestServer.onRedis(masterPort, "--spring.data.redis.sentinel.master=cim",
                            "--spring.data.redis.sentinel.nodes=127.0.0.1:" + sentinelPort,
                            "--spring.data.redis.timeout=500ms", "--cim.server.node-id=sentinel-node")) {
                server.client("bob", new Recorder()).connect().join();
                server.closeClients(); // bob's account; he is away from now on
                CimClient alice = server.client("alice", new Recorder());
                alice.connect().join();
                assertThat(alice.send(Recipient.user("bob"), "m0")).succeedsWithin(Duration.ofSeconds(10))
                        .extracting(SendReceipt::outcome).isEqualTo(SendReceipt.Outcome.STORED);

                master.close();
                List<CompletableFuture<SendReceipt>> sent = new ArrayList<>();
                for (int i = 1; i <= 3; i++) {
                    sent.add(alice.send(Recipient.user("bob"), "m" + i));
                }
                for (CompletableFuture<SendReceipt> receipt : sent) {
                    assertThat(receipt).as("stored on the promoted replica").succeedsWithin(Duration.ofSeconds(60))
                            .extracting(SendReceipt::outcome).isEqualTo(SendReceipt.Outcome.STORED);
                }
                assertThat(RawRedis.command(replicaPort, "ROLE")).as("the replica was promoted").startsWith("*3");
                Recorder bob = new Recorder();
                server.client("bob", bob).connect().join();
                bob.awaitMessages(4);
                assertThat(bob.texts()).containsExactly("m0", "m1", "m2", "m3");
            }
        } finally {
            master.close();
        }
    }
}
