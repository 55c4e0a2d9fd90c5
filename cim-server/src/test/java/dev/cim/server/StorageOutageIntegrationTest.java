package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.client.core.CimClient;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.Recorder;
import dev.cim.client.core.SendReceipt;
import dev.cim.server.support.RawRedis;
import dev.cim.server.support.RedisFixture;
import dev.cim.server.support.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
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
}
