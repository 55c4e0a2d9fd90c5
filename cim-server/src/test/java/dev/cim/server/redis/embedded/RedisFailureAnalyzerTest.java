package dev.cim.server.redis.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisCommandExecutionException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.mock.env.MockEnvironment;

class RedisFailureAnalyzerTest {

    private final RedisFailureAnalyzer analyzer = new RedisFailureAnalyzer(new MockEnvironment()
            .withProperty("spring.data.redis.host", "redis.local")
            .withProperty("spring.data.redis.port", "6400"));

    @Test
    void analyze_embeddedPortTaken_saysSoInOneLine_andHowToFixIt() {
        Throwable failure = new BeanCreationException("cimEmbeddedRedisServer",
                "init failed", new EmbeddedRedisStartException(6390, "port 6390 is already in use", null));

        FailureAnalysis analysis = analyzer.analyze(failure);

        assertThat(analysis.getDescription())
                .isEqualTo("cim could not start its embedded Redis on 127.0.0.1:6390: port 6390 is already in use.")
                .doesNotContain("\n");
        assertThat(analysis.getAction()).contains("--spring.data.redis.port=PORT", "--cim.server.redis.embedded=false");
    }

    @Test
    void analyze_unreachableRedis_namesTheAddress_andHowToFixIt() {
        Throwable failure = new IllegalStateException("Failed to start bean",
                new RedisConnectionFailureException("Unable to connect", new ConnectException("Connection refused")));

        FailureAnalysis analysis = analyzer.analyze(failure);

        assertThat(analysis.getDescription())
                .isEqualTo("cim cannot reach Redis at redis.local:6400 (Connection refused).");
        assertThat(analysis.getAction()).contains("--cim.server.redis.embedded=true");
    }

    @Test
    void analyze_refusedCredentials_saysSo_andWhereThePasswordGoes() {
        Throwable failure = new IllegalStateException("Failed to start bean", new RedisConnectionFailureException(
                "Unable to connect", new RedisCommandExecutionException("WRONGPASS invalid username-password pair")));

        FailureAnalysis analysis = analyzer.analyze(failure);

        assertThat(analysis.getDescription()).isEqualTo(
                "Redis at redis.local:6400 refused cim's credentials (WRONGPASS invalid username-password pair).");
        assertThat(analysis.getAction()).contains("spring.data.redis.username", "SPRING_DATA_REDIS_PASSWORD",
                EmbeddedRedisServer.PASSWORD_FILE);
    }

    /**
     * Lettuce sometimes reports a refused password as a lost connection ("RedisHandshakeHandler not
     * registered", its reconnection racing the failed handshake): the analysis asks Redis itself.
     */
    @Test
    void analyze_inconclusiveFailure_asksRedis_andReportsTheRefusedPassword() throws Exception {
        try (ServerSocket redis = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread answering = new Thread(() -> {
                try (Socket client = redis.accept()) {
                    byte[] auth = new byte[256];
                    int read = client.getInputStream().read(auth);
                    String asked = new String(auth, 0, Math.max(0, read), StandardCharsets.UTF_8);
                    client.getOutputStream().write((asked.contains("AUTH") && asked.contains("cim")
                            ? "-WRONGPASS invalid username-password pair or user is disabled.\r\n" : "+OK\r\n")
                            .getBytes(StandardCharsets.UTF_8));
                } catch (IOException ignored) {
                    // the test fails on the analysis instead
                }
            });
            answering.start();
            RedisFailureAnalyzer probing = new RedisFailureAnalyzer(new MockEnvironment()
                    .withProperty("spring.data.redis.host", "127.0.0.1")
                    .withProperty("spring.data.redis.port", String.valueOf(redis.getLocalPort()))
                    .withProperty("spring.data.redis.username", "cim")
                    .withProperty("spring.data.redis.password", "wrong"));
            Throwable failure = new IllegalStateException("Failed to start bean", new RedisConnectionFailureException(
                    "Unable to connect", new IllegalStateException("RedisHandshakeHandler not registered")));

            FailureAnalysis analysis = probing.analyze(failure);

            assertThat(analysis.getDescription()).startsWith("Redis at 127.0.0.1:" + redis.getLocalPort()
                    + " refused cim's credentials (WRONGPASS");
            answering.join(5_000);
        }
    }

    @Test
    void analyze_untrustedCertificate_saysHowToTrustIt() {
        Throwable failure = new IllegalStateException("Failed to start bean", new RedisConnectionFailureException(
                "Unable to connect", new javax.net.ssl.SSLHandshakeException(
                        "unable to find valid certification path to requested target")));

        FailureAnalysis analysis = analyzer.analyze(failure);

        assertThat(analysis.getDescription()).startsWith("cim does not trust the certificate of Redis at redis.local:6400");
        assertThat(analysis.getAction()).contains("spring.ssl.bundle.pem.NAME.truststore.certificate");
    }

    @Test
    void analyze_embeddedFailureOtherThanThePort_doesNotSayToFreeThePort() {
        Throwable failure = new EmbeddedRedisStartException(6390, "its data directory /x cannot be set up: denied", null);

        FailureAnalysis analysis = analyzer.analyze(failure);

        assertThat(analysis.getAction()).doesNotContain("Free port").contains("--cim.server.redis.embedded=false");
    }

    @Test
    void analyze_otherFailures_isLeftToOtherAnalyzers() {
        assertThat(analyzer.analyze(new IllegalStateException("something else"))).isNull();
    }
}
