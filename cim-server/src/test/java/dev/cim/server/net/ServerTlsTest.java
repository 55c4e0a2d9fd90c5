package dev.cim.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cim.common.tls.SelfSignedCertificate;
import dev.cim.common.tls.TlsProvider;
import io.netty.buffer.ByteBufAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reading the chat port's certificate and key: every mistake stops the start with one line naming it. */
class ServerTlsTest {

    @TempDir
    Path dir;
    private Path cert;
    private Path key;

    @BeforeEach
    void makeCertificate() throws Exception {
        cert = dir.resolve("cert.pem");
        key = dir.resolve("key.pem");
        SelfSignedCertificate.generate("unit", List.of("localhost"), Duration.ofDays(1)).write(cert, key);
    }

    @Test
    void load_aCertificateAndItsKey_givesHandlersTimedByTheLoginDeadline() {
        ServerTls tls = ServerTls.load(cert, key, "", TlsProvider.JDK);

        assertThat(tls.description()).startsWith("TLS by JDK, certificate CN=unit valid until ");
        assertThat(tls.newHandler(ByteBufAllocator.DEFAULT, Duration.ofMillis(1234)).getHandshakeTimeoutMillis())
                .isEqualTo(1234);
    }

    @Test
    void load_missingFile_namesTheSettingAndTheFile() {
        assertThatThrownBy(() -> ServerTls.load(dir.resolve("nope.pem"), key, null, TlsProvider.AUTO))
                .isInstanceOf(TlsSetupException.class)
                .hasMessage("cim.server.tls.certificate: " + dir.resolve("nope.pem") + " does not exist (expected: a PEM file)");
    }

    @Test
    void load_keyThatIsNotPem_saysWhatFormIsExpected_andHowToConvert() throws Exception {
        Files.writeString(key, "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n");

        assertThatThrownBy(() -> ServerTls.load(cert, key, null, TlsProvider.AUTO))
                .isInstanceOf(TlsSetupException.class)
                .hasMessageStartingWith("cim.server.tls.private-key: cannot read a PKCS#8 PEM private key from " + key
                        + " without a password (")
                .hasMessageContaining("openssl pkcs8 -topk8");
    }

    @Test
    void load_certificateFileWithoutACertificate_saysSo() throws Exception {
        Files.writeString(cert, "not a certificate\n");

        assertThatThrownBy(() -> ServerTls.load(cert, key, null, TlsProvider.AUTO))
                .isInstanceOf(TlsSetupException.class)
                .hasMessageStartingWith("cim.server.tls.certificate: cannot read a PEM certificate from " + cert);
    }

    @Test
    void analyzer_saysWhatIsWrongAndHowToSetTlsUp() {
        FailureAnalysis analysis = new TlsFailureAnalyzer().analyze(new IllegalStateException("context",
                new TlsSetupException("cim.server.tls.certificate: x does not exist (expected: a PEM file)")));

        assertThat(analysis.getDescription()).isEqualTo("cim server cannot set up TLS on its chat port: "
                + "cim.server.tls.certificate: x does not exist (expected: a PEM file).");
        assertThat(analysis.getAction()).contains("--cim.server.tls.certificate=CERT.pem",
                "--cim.server.tls.private-key=KEY.pem", "README");
    }
}
