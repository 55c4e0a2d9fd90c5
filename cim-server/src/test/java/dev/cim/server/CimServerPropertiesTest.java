package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.tls.TlsProvider;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.context.ConfigurationPropertiesAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

class CimServerPropertiesTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(CimServerProperties.class)
    static class Config {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ConfigurationPropertiesAutoConfiguration.class))
            .withUserConfiguration(Config.class);

    @Test
    void defaults_areTheDocumentedOnes_andANodeIdIsGenerated() {
        runner.run(context -> {
            CimServerProperties p = context.getBean(CimServerProperties.class);
            assertThat(p.host()).isEqualTo("127.0.0.1");
            assertThat(p.port()).isEqualTo(9000);
            assertThat(p.idleTimeout()).isEqualTo(Duration.ofSeconds(90));
            assertThat(p.heartbeatInterval()).isEqualTo(Duration.ofSeconds(45));
            assertThat(p.maxFrameSize()).isEqualTo(DataSize.ofKilobytes(64));
            assertThat(p.nodeId()).matches("node-[0-9a-f]{8}");
            assertThat(p.presence().ttl()).isEqualTo(Duration.ofSeconds(30));
            assertThat(p.presence().refreshInterval()).isEqualTo(Duration.ofSeconds(10));
            assertThat(p.accounts().bcryptStrength()).isEqualTo(10);
            assertThat(p.ioThreads()).isZero();
            assertThat(p.effectiveIoThreads()).isEqualTo(Runtime.getRuntime().availableProcessors());
            assertThat(p.epoll()).isTrue();
            assertThat(p.redis().embedded()).isTrue();
            assertThat(p.redis().fsync()).isEqualTo("everysec");
            assertThat(p.redis().executable()).isEmpty();
            assertThat(p.redis().maxmemory()).isEqualTo(DataSize.ofGigabytes(1));
            assertThat(p.redisDataDir(6390).toString()).endsWith(java.nio.file.Path.of(".cim", "data", "redis-6390").toString());
            assertThat(p.delays().maxDelay()).isEqualTo(Duration.ofDays(400));
            assertThat(p.delays().maxPerUser()).isEqualTo(1000);
            assertThat(p.delays().window()).isEqualTo(Duration.ofHours(1));
            assertThat(p.limits().windowMessages()).isEqualTo(10_000);
            assertThat(p.shutdown().grace()).isEqualTo(Duration.ofSeconds(5));
            assertThat(p.tls().enabled()).isFalse();
            assertThat(p.tls().provider()).isEqualTo(TlsProvider.AUTO);
            assertThat(p.tls().allowPlaintext()).isFalse();
        });
    }

    @Test
    void tls_isBound_andOnWithACertificateAndKey() {
        runner.withPropertyValues("cim.server.tls.certificate=/etc/cim/cert.pem", "cim.server.tls.private-key=/etc/cim/key.pem",
                        "cim.server.tls.provider=jdk", "cim.server.tls.allow-plaintext=true")
                .run(context -> {
                    CimServerProperties.Tls tls = context.getBean(CimServerProperties.class).tls();
                    assertThat(tls.enabled()).isTrue();
                    assertThat(tls.certificate()).isEqualTo(Path.of("/etc/cim/cert.pem"));
                    assertThat(tls.privateKey()).isEqualTo(Path.of("/etc/cim/key.pem"));
                    assertThat(tls.provider()).isEqualTo(TlsProvider.JDK);
                    assertThat(tls.allowPlaintext()).isTrue();
                });
    }

    @Test
    void tlsCertificateWithoutItsKey_failsStartupSayingWhatWasExpected() {
        runner.withPropertyValues("cim.server.tls.certificate=cert.pem")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("cim.server.tls.certificate: cert.pem, cim.server.tls.private-key: null "
                                + "(expected: both, for TLS, or neither, for plaintext)"));
    }

    @Test
    void tlsProviderUnknown_failsStartupNamingTheSetting() {
        runner.withPropertyValues("cim.server.tls.provider=gnutls")
                .run(context -> assertThat(context).getFailure().hasStackTraceContaining("cim.server.tls.provider"));
    }

    @Test
    void properties_areBoundFromKebabCaseNames() {
        runner.withPropertyValues("cim.server.port=0", "cim.server.idle-timeout=2s", "cim.server.node-id=eu-1",
                        "cim.server.max-frame-size=1MB", "cim.server.presence.ttl=1m",
                        "cim.server.presence.refresh-interval=20s", "cim.server.accounts.bcrypt-strength=4",
                        "cim.server.io-threads=2", "cim.server.epoll=false")
                .run(context -> {
                    CimServerProperties p = context.getBean(CimServerProperties.class);
                    assertThat(p.port()).isZero();
                    assertThat(p.idleTimeout()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(p.nodeId()).isEqualTo("eu-1");
                    assertThat(p.maxFrameSize()).isEqualTo(DataSize.ofMegabytes(1));
                    assertThat(p.presence().ttl()).isEqualTo(Duration.ofMinutes(1));
                    assertThat(p.accounts().bcryptStrength()).isEqualTo(4);
                    assertThat(p.ioThreads()).isEqualTo(2);
                    assertThat(p.effectiveIoThreads()).isEqualTo(2);
                    assertThat(p.epoll()).isFalse();
                });
    }

    @Test
    void redisSettings_areBound_andATinyMaxmemoryFailsStartup() {
        runner.withPropertyValues("cim.server.redis.maxmemory=256MB", "cim.server.redis.executable=bundled")
                .run(context -> {
                    CimServerProperties p = context.getBean(CimServerProperties.class);
                    assertThat(p.redis().maxmemory()).isEqualTo(DataSize.ofMegabytes(256));
                    assertThat(p.redis().executable()).isEqualTo("bundled");
                });
        runner.withPropertyValues("cim.server.redis.maxmemory=512KB")
                .run(context -> assertThat(context).getFailure()
                        .rootCause().hasMessageContaining("cim.server.redis.maxmemory: 524288B (expected: >= 1MB)"));
    }

    @Test
    void replicasToAck_isBound_andANegativeCountFailsStartup() {
        runner.withPropertyValues("cim.server.redis.replicas-to-ack=1", "cim.server.redis.replicas-ack-timeout=250ms")
                .run(context -> {
                    CimServerProperties p = context.getBean(CimServerProperties.class);
                    assertThat(p.redis().replicasToAck()).isEqualTo(1);
                    assertThat(p.redis().replicasAckTimeout()).isEqualTo(java.time.Duration.ofMillis(250));
                });
        runner.withPropertyValues("cim.server.redis.replicas-to-ack=-1")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .rootCause().hasMessageContaining("cim.server.redis.replicas-to-ack: -1 (expected: >= 0)"));
    }

    @Test
    void refreshIntervalNotBelowTheTtl_failsStartupSayingWhatWasExpected() {
        runner.withPropertyValues("cim.server.presence.ttl=10s", "cim.server.presence.refresh-interval=10s")
                .run(context -> assertThat(context).getFailure()
                        .rootCause().hasMessageContaining("expected: < cim.server.presence.ttl"));
    }

    @Test
    void nodeIdWithASeparator_failsStartup() {
        runner.withPropertyValues("cim.server.node-id=a:b")
                .run(context -> assertThat(context).getFailure().rootCause().hasMessageContaining("node-id"));
    }

    @Test
    void frameSizeOutOfRange_failsStartup() {
        runner.withPropertyValues("cim.server.max-frame-size=10B")
                .run(context -> assertThat(context).getFailure().rootCause().hasMessageContaining("max-frame-size"));
    }

    @Test
    void negativeIoThreads_failsStartupSayingWhatWasExpected() {
        runner.withPropertyValues("cim.server.io-threads=-1")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("cim.server.io-threads: -1 (expected: >= 0"));
    }

    @Test
    void fsyncOtherThanEverysecOrAlways_failsStartupSayingWhatWasExpected() {
        runner.withPropertyValues("cim.server.redis.fsync=never")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("cim.server.redis.fsync: 'never' (expected: everysec or always)"));
    }

    @Test
    void scanIntervalNotBelowTheWindow_failsStartupSayingWhatWasExpected() {
        runner.withPropertyValues("cim.server.delays.window=1m", "cim.server.delays.scan-interval=2m")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("expected: < cim.server.delays.window"));
    }

    @Test
    void textLongerThanTheProtocolAllows_failsStartup() {
        runner.withPropertyValues("cim.server.limits.max-text-length=5000")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("cim.server.limits.max-text-length: 5000 (expected: 1 to 4000)"));
    }
}
