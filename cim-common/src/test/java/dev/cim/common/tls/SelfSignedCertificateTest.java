package dev.cim.common.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SelfSignedCertificateTest {

    @TempDir
    Path dir;

    @Test
    void generate_makesAV3CertificateForTheNamesGiven_selfSignedAndValidNow() throws Exception {
        SelfSignedCertificate made = SelfSignedCertificate.generate("cim test", List.of("localhost", "127.0.0.1", "::1"),
                Duration.ofDays(2));
        X509Certificate cert = made.certificate();

        assertThat(cert.getVersion()).isEqualTo(3);
        assertThat(cert.getSubjectX500Principal().getName()).isEqualTo("CN=cim test");
        assertThat(cert.getIssuerX500Principal()).isEqualTo(cert.getSubjectX500Principal());
        cert.verify(cert.getPublicKey()); // signed by its own key
        cert.checkValidity();
        assertThat(cert.getNotAfter().toInstant()).isBetween(Instant.now().plus(Duration.ofDays(2)).minusSeconds(60),
                Instant.now().plus(Duration.ofDays(2)));
        assertThat(cert.getBasicConstraints()).as("not a CA").isEqualTo(-1);
        assertThat(cert.getSubjectAlternativeNames()).containsExactlyInAnyOrder(
                List.of(2, "localhost"), List.of(7, "127.0.0.1"), List.of(7, "0:0:0:0:0:0:0:1"));
        assertThat(made.privateKey().getAlgorithm()).isEqualTo("EC");
    }

    @Test
    void generate_twice_givesTwoDifferentKeysAndSerials() {
        SelfSignedCertificate a = SelfSignedCertificate.generate("a", List.of("localhost"), Duration.ofDays(1));
        SelfSignedCertificate b = SelfSignedCertificate.generate("a", List.of("localhost"), Duration.ofDays(1));

        assertThat(a.certificate().getSerialNumber()).isNotEqualTo(b.certificate().getSerialNumber());
        assertThat(a.certificate().getPublicKey()).isNotEqualTo(b.certificate().getPublicKey());
    }

    @Test
    void generate_pastTheYear2049_stillParses() throws Exception {
        SelfSignedCertificate made = SelfSignedCertificate.generate("far", List.of("localhost"), Duration.ofDays(365 * 40));

        assertThat(made.certificate().getNotAfter().toInstant()).isAfter(Instant.parse("2050-01-01T00:00:00Z"));
    }

    @Test
    void generate_badArguments_areRefusedSayingWhatWasExpected() {
        assertThatThrownBy(() -> SelfSignedCertificate.generate("x", List.of(), Duration.ofDays(1)))
                .hasMessage("names: [] (expected: at least one DNS name or IP address)");
        assertThatThrownBy(() -> SelfSignedCertificate.generate("x", List.of("bad name"), Duration.ofDays(1)))
                .hasMessage("name: 'bad name' (expected: a DNS name or an IP address)");
        assertThatThrownBy(() -> SelfSignedCertificate.generate("x", List.of("localhost"), Duration.ZERO))
                .hasMessage("validity: PT0S (expected: > 0)");
        assertThatThrownBy(() -> SelfSignedCertificate.generate(" ", List.of("localhost"), Duration.ofDays(1)))
                .hasMessage("commonName: ' ' (expected: a name)");
    }

    @Test
    void write_givesPemFilesThatReadBack_theKeyForItsOwnerOnly() throws Exception {
        SelfSignedCertificate made = SelfSignedCertificate.generate("pem", List.of("localhost"), Duration.ofDays(1));
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");

        made.write(cert, key);

        assertThat(Files.readString(cert)).startsWith("-----BEGIN CERTIFICATE-----\n").endsWith("-----END CERTIFICATE-----\n");
        assertThat(Files.readString(key)).startsWith("-----BEGIN PRIVATE KEY-----\n").endsWith("-----END PRIVATE KEY-----\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
        X509Certificate read = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(Files.readString(cert).getBytes(StandardCharsets.US_ASCII)));
        assertThat(read).isEqualTo(made.certificate());
    }

    @Test
    void theFiles_makeAServerThatAClientTrustingTheCertificateCompletesAHandshakeWith_checkingTheName() throws Exception {
        SelfSignedCertificate made = SelfSignedCertificate.generate("hs", List.of("localhost", "127.0.0.1"), Duration.ofDays(1));
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        made.write(cert, key);
        SslContext server = SslContextBuilder.forServer(cert.toFile(), key.toFile()).sslProvider(SslProvider.JDK).build();
        SslContext client = SslContextBuilder.forClient().trustManager(cert.toFile()).sslProvider(SslProvider.JDK)
                .endpointIdentificationAlgorithm("HTTPS").build();

        assertThat(handshake(server, client, "127.0.0.1")).isTrue();
        assertThat(handshake(server, client, "localhost")).isTrue();
        assertThatThrownBy(() -> handshake(server, client, "127.0.0.2"))
                .isInstanceOf(SSLException.class).hasStackTraceContaining("127.0.0.2");
    }

    /** A whole handshake between two engines in memory; throws what the client's engine throws. */
    private static boolean handshake(SslContext serverContext, SslContext clientContext, String host) throws Exception {
        SSLEngine server = serverContext.newEngine(ByteBufAllocator.DEFAULT);
        SSLEngine client = clientContext.newEngine(ByteBufAllocator.DEFAULT, host, 443);
        SSLParameters parameters = client.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        client.setSSLParameters(parameters);
        ByteBuffer toServer = ByteBuffer.allocate(64 * 1024);
        ByteBuffer toClient = ByteBuffer.allocate(64 * 1024);
        ByteBuffer empty = ByteBuffer.allocate(0);
        ByteBuffer sink = ByteBuffer.allocate(64 * 1024);
        client.beginHandshake();
        server.beginHandshake();
        for (int i = 0; i < 100; i++) {
            step(client, empty, toServer, toClient, sink);
            step(server, empty, toClient, toServer, sink);
            if (client.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING
                    && server.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING) {
                return true;
            }
        }
        return false;
    }

    private static void step(SSLEngine engine, ByteBuffer empty, ByteBuffer out, ByteBuffer in, ByteBuffer sink)
            throws SSLException {
        switch (engine.getHandshakeStatus()) {
            case NEED_WRAP -> engine.wrap(empty, out);
            case NEED_UNWRAP -> {
                in.flip();
                engine.unwrap(in, sink);
                in.compact();
            }
            case NEED_TASK -> {
                Runnable task;
                while ((task = engine.getDelegatedTask()) != null) {
                    task.run();
                }
            }
            default -> { }
        }
    }
}
