package dev.cim.server.redis.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisCommandExecutionException;
import java.net.ConnectException;
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
