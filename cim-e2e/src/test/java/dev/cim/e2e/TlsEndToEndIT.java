package dev.cim.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.tls.SelfSignedCertificate;
import dev.cim.testkit.Ports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * TLS as a user meets it: the server jar started with a certificate (made for the test, as
 * {@code openssl req -x509} would make one), console client jars trusting it, trusting another,
 * or speaking plaintext. Each test uses its own user names.
 */
class TlsEndToEndIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Path CERTS = certificates();
    private static final Path TRUSTED = CERTS.resolve("server.pem");
    private static final Path UNTRUSTED = CERTS.resolve("other.pem");

    @RegisterExtension
    static final CimSystem cim = new CimSystem().withServerArgs(
            "--cim.server.tls.certificate=" + TRUSTED,
            "--cim.server.tls.private-key=" + CERTS.resolve("server-key.pem"));

    @Test
    void clientsTrustingTheServersCertificate_chatOverTls() throws Exception {
        JavaProcess alice = cim.client("alice1", "--cim.client.tls.trust=" + TRUSTED);
        JavaProcess bob = cim.client("bob1", "--cim.client.tls.trust=" + TRUSTED);

        alice.type("@bob1 hello over tls");

        bob.await("] alice1 to you: hello over tls", WAIT);
        assertThat(cim.server().transcript()).contains("listening on", "TLS by ");
    }

    @Test
    void aPlaintextClient_saysSoInOneLineAndExits_andTheServerServesTheOthers() throws Exception {
        JavaProcess plaintext = cim.startClient("alice2");

        plaintext.await("error: the server at 127.0.0.1:" + cim.port() + " accepts TLS connections only, and this "
                + "client is set for plaintext (expected: TLS turned on); see cim.client.tls.* in the README", WAIT);
        assertThat(plaintext.awaitExit(WAIT)).isEqualTo(1);
        assertThat(errorLines(plaintext)).hasSize(1);

        cim.client("bob2", "--cim.client.tls.trust=" + TRUSTED);
    }

    @Test
    void aClientNotTrustingTheCertificate_saysSoInOneLineAndExits() throws Exception {
        JavaProcess wary = cim.startClient("alice3", "--cim.client.tls.trust=" + UNTRUSTED);

        JavaProcess.Line error = wary.await("error: the server at 127.0.0.1:" + cim.port() + " failed TLS "
                + "verification: its certificate is not signed by anyone trusted (", WAIT);
        assertThat(error.text()).endsWith("; trusting the certificates in " + UNTRUSTED
                + "; see cim.client.tls.* in the README");
        assertThat(wary.awaitExit(WAIT)).isEqualTo(1);
        assertThat(errorLines(wary)).hasSize(1);
    }

    @Test
    void aPlaintextClientForAnAddressThatIsNotLoopback_refusesToStart_sayingWhichSettingsToUse() throws Exception {
        // Refused before any connection is tried: nothing is sent to that address.
        JavaProcess remote = cim.startClient("alice4", "--cim.server.host=chat.example");

        remote.await("cim-client: plaintext to chat.example:" + cim.port() + ", which is not a loopback address", WAIT);
        assertThat(remote.awaitExit(WAIT)).isEqualTo(2);
        assertThat(remote.transcript()).contains("--cim.client.tls.enabled=true", "--cim.client.tls.allow-plaintext=true");
    }

    @Test
    void aPlaintextServerOnEveryInterface_refusesToStart_sayingHowToFixIt() throws Exception {
        Path data = Files.createTempDirectory("cim-e2e-refused-");
        try (JavaProcess server = JavaProcess.start("refused server", cim.serverJar(), List.of(
                "--cim.server.host=0.0.0.0",
                "--cim.server.port=" + Ports.free(),
                "--cim.server.redis.embedded=true",
                "--cim.server.data-dir=" + data,
                "--spring.data.redis.port=" + Ports.free(),
                "--management.server.port=" + Ports.free(),
                "--cim.server.web.port=0"))) {
            server.await("cim server refuses to listen in plaintext on 0.0.0.0, which is not a loopback address", WAIT);
            assertThat(server.awaitExit(WAIT)).isNotZero();
            assertThat(server.transcript()).contains("--cim.server.tls.allow-plaintext=true").doesNotContain("listening on");
        }
    }

    private static List<String> errorLines(JavaProcess process) {
        return process.transcript().lines().filter(line -> line.contains("error")).toList();
    }

    private static Path certificates() {
        try {
            Path dir = Files.createTempDirectory("cim-e2e-tls-");
            SelfSignedCertificate.generate("cim e2e", List.of("localhost", "127.0.0.1"), Duration.ofDays(1))
                    .write(dir.resolve("server.pem"), dir.resolve("server-key.pem"));
            SelfSignedCertificate.generate("cim e2e", List.of("localhost", "127.0.0.1"), Duration.ofDays(1))
                    .write(dir.resolve("other.pem"), dir.resolve("other-key.pem"));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
