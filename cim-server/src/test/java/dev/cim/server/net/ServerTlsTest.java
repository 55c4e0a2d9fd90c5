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
import java.util.concurrent.TimeUnit;
import io.netty.handler.ssl.OpenSsl;
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

    /**
     * The README's openssl commands, the key plain and encrypted. Fails where there is no openssl
     * command rather than skip ({@code .ci/run} installs it).
     */
    @Test
    void load_filesMadeByTheReadmesOpensslCommands_anEncryptedKeyWithItsPassword_withEitherProvider() throws Exception {
        Path sslCert = dir.resolve("openssl-cert.pem");
        Path sslKey = dir.resolve("openssl-key.pem");
        Path plainKey = dir.resolve("openssl-plain-key.pem");
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout", plainKey.toString(), "-out", sslCert.toString());
        openssl("pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", plainKey.toString(), "-out", sslKey.toString(),
                "-passout", "pass:sekret");
        assertThat(Files.readString(sslKey)).startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----");
        assertThat(ServerTls.load(sslCert, plainKey, null, TlsProvider.JDK).description())
                .startsWith("TLS by JDK, certificate CN=localhost");

        assertThat(ServerTls.load(sslCert, sslKey, "sekret", TlsProvider.JDK).description())
                .startsWith("TLS by JDK, certificate CN=localhost");
        if (OpenSsl.isAvailable()) {
            assertThat(ServerTls.load(sslCert, sslKey, "sekret", TlsProvider.OPENSSL).description())
                    .startsWith("TLS by OpenSSL (BoringSSL), certificate CN=localhost");
        }
        assertThatThrownBy(() -> ServerTls.load(sslCert, sslKey, "wrong", TlsProvider.JDK))
                .isInstanceOf(TlsSetupException.class)
                .hasMessageStartingWith("cim.server.tls.private-key: cannot read a PKCS#8 PEM private key from " + sslKey
                        + " with the password given (");
    }

    /** Runs openssl with {@code args}; fails the test where there is no openssl command. */
    private static void openssl(String... args) throws Exception {
        java.util.List<String> command = new java.util.ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process openssl;
        try {
            openssl = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (java.io.IOException noOpenssl) {
            throw new AssertionError("no openssl command here (expected: one, to make the files the README's "
                    + "commands make: apt-get install openssl, as .ci/run does): " + noOpenssl.getMessage(), noOpenssl);
        }
        String output = new String(openssl.getInputStream().readAllBytes());
        assertThat(openssl.waitFor(60, TimeUnit.SECONDS) && openssl.exitValue() == 0).as("openssl: %s", output).isTrue();
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
