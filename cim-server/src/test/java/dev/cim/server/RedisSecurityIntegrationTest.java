package dev.cim.server;

import static dev.cim.common.Failures.rootMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cim.client.core.CimClient;
import dev.cim.client.core.CimException;
import dev.cim.client.core.ConnectionEvent;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.Recorder;
import dev.cim.client.core.SendReceipt;
import dev.cim.server.chat.ChatCore;
import dev.cim.server.redis.RedisKeys;
import dev.cim.server.redis.embedded.EmbeddedRedisServer;
import dev.cim.server.redis.embedded.RedisExecutable;
import dev.cim.server.support.ExternalRedis;
import dev.cim.server.support.RawRedis;
import dev.cim.server.support.TestCertificate;
import dev.cim.server.support.TestServer;
import dev.cim.testkit.Ports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Redis as an attacker on the same machine meets it, and as an operator runs it: the embedded Redis
 * refuses strangers and keeps its password across restarts, a full Redis is reported to the sender
 * without losing anything, and an external Redis is reached with a user, a password and TLS.
 */
class RedisSecurityIntegrationTest {

    @TempDir
    Path tempDir;

    private static CimClient online(TestServer server, String user, Recorder recorder) {
        CimClient client = server.client(user, recorder);
        client.connect().join();
        return client;
    }

    private static String passwordIn(Path dataDir) throws Exception {
        return Files.readString(dataDir.resolve(EmbeddedRedisServer.PASSWORD_FILE)).strip();
    }

    @Test
    void embeddedRedis_refusesAnUnauthenticatedKeysStar_whileTheServerWorksWithIt() throws Exception {
        Path dataDir = tempDir.resolve("data");
        int redisPort = Ports.free();
        try (TestServer server = TestServer.embedded(redisPort, dataDir)) {
            Recorder bob = new Recorder();
            online(server, "bob", bob);
            CimClient alice = online(server, "alice", new Recorder());
            online(server, "carol", new Recorder()).close();
            assertThat(alice.send(Recipient.user("bob"), "hello").join().outcome()).isEqualTo(SendReceipt.Outcome.DELIVERED);
            bob.awaitText("hello");
            await("carol is offline").atMost(Recorder.WAIT).until(() -> !alice.onlineUsers().join().contains("carol"));
            // Through the inbox script: Redis without CONFIG, DEBUG and MODULE serves everything the server does.
            assertThat(alice.send(Recipient.user("carol"), "later").join().outcome()).isEqualTo(SendReceipt.Outcome.STORED);

            assertThat(RawRedis.command(redisPort, "KEYS", "*")).startsWith("-NOAUTH");
            assertThat(RawRedis.command(redisPort, "HGETALL", RedisKeys.account("alice"))).startsWith("-NOAUTH");
            assertThat(RawRedis.command(redisPort, "XRANGE", RedisKeys.inbox("carol"), "-", "+")).startsWith("-NOAUTH");
            assertThat(RawRedis.command(redisPort, "DEL", RedisKeys.account("alice"))).startsWith("-NOAUTH");
            assertThat(RawRedis.command(redisPort, "PUBLISH", RedisKeys.BUS_ALL, "forged")).startsWith("-NOAUTH");

            String password = passwordIn(dataDir);
            assertThat(RawRedis.authenticated(redisPort, password, "EXISTS", RedisKeys.account("alice"))).isEqualTo(":1");
            assertThat(RawRedis.authenticated(redisPort, password, "XLEN", RedisKeys.inbox("carol"))).isEqualTo(":1");
            assertThat(RawRedis.authenticated(redisPort, password, "CONFIG", "SET", "dir", "/tmp"))
                    .startsWith("-ERR unknown command");
        }
    }

    @Test
    void restartOnTheSameDataDirectory_keepsThePasswordAndTheAccounts() throws Exception {
        Path dataDir = tempDir.resolve("data");
        int redisPort = Ports.free();
        String password;
        try (TestServer server = TestServer.embedded(redisPort, dataDir)) {
            assertThat(server.client("alice", new Recorder()).connect().join().accountCreated()).isTrue();
            password = passwordIn(dataDir);
        }

        try (TestServer server = TestServer.embedded(redisPort, dataDir)) {
            assertThat(server.client("alice", new Recorder()).connect().join().accountCreated())
                    .as("alice's account is still there, and her password still accepted").isFalse();
            assertThat(passwordIn(dataDir)).isEqualTo(password);
        }
    }

    @Test
    void fullRedis_tellsTheSenderTheStorageIsFull_andEvictsNothing() throws Exception {
        Path dataDir = tempDir.resolve("data");
        try (TestServer server = TestServer.embedded(Ports.free(), dataDir, "--cim.server.redis.maxmemory=3MB")) {
            online(server, "bob", new Recorder()).close();
            CimClient alice = online(server, "alice", new Recorder());
            await("bob is offline").atMost(Recorder.WAIT).until(() -> !alice.onlineUsers().join().contains("bob"));
            String filler = "x".repeat(3900);

            int stored = 0;
            CimException refusal = null;
            // 3 MB hold fewer than 1,000 messages of 3.9 KB: the loop ends with the refusal.
            for (int i = 0; i < 1000 && refusal == null; i++) {
                try {
                    SendReceipt receipt = alice.send(Recipient.user("bob"), i + " " + filler).join();
                    assertThat(receipt.outcome()).isEqualTo(SendReceipt.Outcome.STORED);
                    stored++;
                } catch (CompletionException e) {
                    assertThat(e.getCause()).isInstanceOf(CimException.class);
                    refusal = (CimException) e.getCause();
                }
            }

            assertThat(refusal).as("a refusal within 1000 messages").isNotNull();
            assertThat(refusal.getMessage()).contains("the server's storage is full").doesNotContain("unavailable");
            assertThat(stored).as("messages stored before Redis was full").isGreaterThan(10);
            assertThat(server.redis().opsForStream().size(RedisKeys.inbox("bob")))
                    .as("bob's inbox holds every message confirmed: none evicted").isEqualTo(stored);
            assertThat(server.redis().hasKey(RedisKeys.account("bob"))).isTrue();
            assertThat(server.redis().hasKey(RedisKeys.account("alice"))).isTrue();
            // Reading still works: the server still answers alice.
            assertThat(alice.onlineUsers().join()).contains("alice");
        }
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void externalRedis_withAnAclUserAndPassword_servesTwoNodes_andAWrongPasswordStopsTheStart(CapturedOutput output)
            throws Exception {
        RedisExecutable executable = RedisExecutable.resolve("").executable();
        int port = Ports.free();
        String config = """
                port %d
                bind 127.0.0.1
                user default off
                user cim on >s3cret-pw ~* &* +@all
                """.formatted(port);
        try (ExternalRedis redis = ExternalRedis.start(executable, tempDir.resolve("acl"), config)) {
            assertThat(RawRedis.command(port, "KEYS", "*")).startsWith("-NOAUTH");
            try (TestServer a = TestServer.onRedis(port, "--cim.server.node-id=node-a",
                    "--cim.server.presence.refresh-interval=200ms", "--cim.server.presence.ttl=3s",
                    "--spring.data.redis.username=cim", "--spring.data.redis.password=s3cret-pw");
                    TestServer b = TestServer.onRedis(port, "--cim.server.node-id=node-b",
                            "--cim.server.presence.refresh-interval=200ms", "--cim.server.presence.ttl=3s",
                            "--spring.data.redis.username=cim", "--spring.data.redis.password=s3cret-pw")) {
                await("the nodes see each other").atMost(Recorder.WAIT).until(() ->
                        a.bean(ChatCore.class).peers() == 1 && b.bean(ChatCore.class).peers() == 1);
                Recorder bob = new Recorder();
                online(b, "bob", bob);
                CimClient alice = online(a, "alice", new Recorder());

                // Relayed over pub/sub from node a to node b.
                assertThat(alice.send(Recipient.user("bob"), "across").join().outcome())
                        .isEqualTo(SendReceipt.Outcome.DELIVERED);
                bob.awaitText("across");
            }

            Throwable refused = catchThrowable(() -> TestServer.onRedis(port, "--spring.data.redis.username=cim",
                    "--spring.data.redis.password=wrong"));
            assertThat(refused).as("a start with a wrong password").isNotNull();
            // Said as such, whether the client library reported it so or as a lost connection.
            assertThat(output.getOut() + output.getErr()).contains("refused cim's credentials (WRONGPASS");
        }
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void externalRedisThatEvicts_isReportedAtStart(CapturedOutput output) throws Exception {
        int port = Ports.free();
        String config = """
                port %d
                bind 127.0.0.1
                requirepass evict-pw
                maxmemory 64mb
                maxmemory-policy allkeys-lru
                """.formatted(port);
        try (ExternalRedis redis = ExternalRedis.start(RedisExecutable.resolve("").executable(),
                tempDir.resolve("lru"), config);
                TestServer server = TestServer.onRedis(port, "--spring.data.redis.password=evict-pw")) {
            await("the warning").atMost(Recorder.WAIT).until(() -> output.getOut().contains(
                    "Redis evicts keys when it is full (maxmemory-policy allkeys-lru)"));
        }
    }

    @Test
    void loginWhileRedisIsDown_isRefusedForNow_andTheClientWaitsItOut_thenLogsIn() throws Exception {
        int port = Ports.free();
        String config = "port %d\nbind 127.0.0.1\n".formatted(port);
        RedisExecutable executable = RedisExecutable.resolve("").executable();
        ExternalRedis redis = ExternalRedis.start(executable, tempDir.resolve("down"), config);
        try (TestServer server = TestServer.onRedis(port, "--spring.data.redis.timeout=1s")) {
            redis.close();
            Recorder events = new Recorder();
            CimClient dan = server.client("dan", events);

            java.util.concurrent.CompletableFuture<dev.cim.client.core.LoginInfo> login = dan.connect();

            ConnectionEvent.Disconnected refused = events.awaitEvent(ConnectionEvent.Disconnected.class);
            assertThat(refused.reason()).contains("storage is unavailable; try again");
            assertThat(refused.retryIn()).isGreaterThanOrEqualTo(java.time.Duration.ofSeconds(1));
            assertThat(login).as("the client waits, it has not given up").isNotDone();
            assertThat(events.events(ConnectionEvent.Refused.class)).isEmpty();
            redis = ExternalRedis.start(executable, tempDir.resolve("down"), config);
            assertThat(login).succeedsWithin(Recorder.WAIT);
        } finally {
            redis.close();
        }
    }

    @Test
    void externalRedis_overTls_withItsCertificateTrusted() throws Exception {
        RedisExecutable executable = RedisExecutable.resolve("").executable();
        assumeTrue(executable.version().atLeast7() && !executable.source().equals(RedisExecutable.BUNDLED),
                "needs a redis-server 7 built with TLS on the PATH (apt-get install redis-server)");
        TestCertificate certificate = TestCertificate.create(tempDir.resolve("tls"));
        int port = Ports.free();
        String config = """
                port 0
                tls-port %d
                bind 127.0.0.1
                tls-cert-file "%s"
                tls-key-file "%s"
                tls-ca-cert-file "%s"
                tls-auth-clients no
                requirepass tls-pw
                """.formatted(port, certificate.certificate(), certificate.privateKey(), certificate.certificate());
        try (ExternalRedis redis = ExternalRedis.start(executable, tempDir.resolve("redis"), config)) {
            try (TestServer server = TestServer.onRedis(port, "--spring.data.redis.password=tls-pw",
                    "--spring.data.redis.ssl.enabled=true", "--spring.data.redis.ssl.bundle=redis",
                    "--spring.ssl.bundle.pem.redis.truststore.certificate=file:" + certificate.certificate())) {
                Recorder bob = new Recorder();
                online(server, "bob", bob);
                CimClient alice = online(server, "alice", new Recorder());
                alice.send(Recipient.user("bob"), "over tls").join();
                bob.awaitText("over tls");
            }

            // Without the certificate trusted, the server does not start: Redis' certificate is checked.
            Throwable untrusted = catchThrowable(() -> TestServer.onRedis(port, "--spring.data.redis.password=tls-pw",
                    "--spring.data.redis.ssl.enabled=true"));
            assertThat(untrusted).as("a start that does not trust Redis' certificate").isNotNull();
            assertThat(rootMessage(untrusted)).contains("certification path");
        }
    }
}
