package dev.cim.client.core;

import static dev.cim.client.core.FakeServer.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.cim.client.core.FakeServer.Connection;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope.KindCase;
import dev.cim.common.tls.SelfSignedCertificate;
import dev.cim.common.tls.TlsProvider;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client library's TLS against scripted servers that speak TLS with a certificate made for the
 * test: what it sends, and when; what it refuses, in one line; and where it will not speak plaintext.
 */
class ClientTlsTest {

    private static final String PASSWORD = "secret-password-123";

    @TempDir
    static Path dir;
    private static Path serverCert;
    private static Path otherCert;
    private static SslContext serverContext;

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Recorder recorder = new Recorder();

    @BeforeAll
    static void makeCertificates() throws Exception {
        serverCert = dir.resolve("server.pem");
        otherCert = dir.resolve("other.pem");
        SelfSignedCertificate server = SelfSignedCertificate.generate("fake", List.of("localhost", "127.0.0.1"),
                Duration.ofDays(1));
        server.write(serverCert, dir.resolve("server-key.pem"));
        SelfSignedCertificate.generate("fake", List.of("localhost", "127.0.0.1"), Duration.ofDays(1))
                .write(otherCert, dir.resolve("other-key.pem"));
        serverContext = SslContextBuilder.forServer(server.privateKey(), server.certificate()).build();
    }

    @AfterEach
    void closeAll() throws Exception {
        Collections.reverse(resources);
        for (AutoCloseable resource : resources) {
            resource.close();
        }
    }

    @Test
    void aVerifiedServer_getsTheLogin_onlyEncrypted() {
        FakeServer server = tlsServer();
        CimClient client = build(builder(server).tls(ClientTls.trusting(serverCert)));

        client.connect();
        Connection connection = server.nextConnection();

        assertThat(connection.next(KindCase.LOGIN).getLogin().getPassword()).isEqualTo(PASSWORD);
        assertThat(new String(server.rawBytes(), StandardCharsets.ISO_8859_1)).as("what crossed the network")
                .isNotEmpty().doesNotContain(PASSWORD).doesNotContain("alice");
    }

    @Test
    void aServerWhoseCertificateIsNotTrusted_stopsTheClientWithOneLine_beforeItSendsAnything() {
        FakeServer server = tlsServer();
        CimClient client = build(builder(server).tls(ClientTls.trusting(otherCert)));
        java.util.concurrent.CompletableFuture<SendReceipt> waiting = client.send(Recipient.user("bob"), "never sent");

        CimException failure = failure(client.connect());

        assertThat(failure.reason()).isEqualTo(CimException.Reason.TLS_FAILED);
        assertThat(failure.getMessage())
                .startsWith("the server at " + server.address() + " failed TLS verification: its certificate is not "
                        + "signed by anyone trusted (")
                .endsWith("; trusting the certificates in " + otherCert)
                .doesNotContain("\n");
        assertThat(recorder.awaitEvent(ConnectionEvent.TlsFailed.class).reason()).isEqualTo(failure.getMessage());
        assertThat(failure(waiting).reason()).as("what waited for the login").isEqualTo(CimException.Reason.TLS_FAILED);
        assertThat(failure(client.send(Recipient.user("bob"), "later")).reason()).isEqualTo(CimException.Reason.TLS_FAILED);
        // With a 20 ms backoff a client still trying would have connected again many times over.
        await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> server.connectionCount() == 1);
        assertThat(server.connectionsSoFar().get(0).all()).as("frames the server could read").isEmpty();
        assertThat(new String(server.rawBytes(), StandardCharsets.ISO_8859_1)).doesNotContain(PASSWORD);
    }

    @Test
    void aServerWhoseCertificateIsForAnotherName_isRefused_unlessThatNameIsExpected() {
        FakeServer server = tlsServer();
        CimClient wrongName = build(builder(server).tls(ClientTls.trusting(serverCert).serverName("chat.example")));

        assertThat(failure(wrongName.connect())).hasMessageStartingWith("the server at " + server.address()
                + " failed TLS verification: its certificate is not for chat.example (");

        CimClient rightName = build(builder(server).tls(ClientTls.trusting(serverCert).serverName("localhost")));
        rightName.connect();
        await().atMost(WAIT).until(() -> server.connectionCount() == 2);
        assertThat(server.connectionsSoFar().get(1).next(KindCase.LOGIN).getLogin().getUserName()).isEqualTo("alice");
    }

    @Test
    void eachProvider_verifiesTheServer() {
        for (TlsProvider provider : io.netty.handler.ssl.OpenSsl.isAvailable()
                ? List.of(TlsProvider.JDK, TlsProvider.OPENSSL) : List.of(TlsProvider.JDK)) {
            FakeServer server = tlsServer();
            CimClient refused = build(builder(server).tls(ClientTls.create(otherCert, provider)));
            assertThat(failure(refused.connect()).reason()).as(provider.name()).isEqualTo(CimException.Reason.TLS_FAILED);
        }
    }

    @Test
    void plaintext_isBuiltOnlyForLoopback_unlessAllowedOrTls() {
        CimClientBuilder remote = CimClient.builder().addresses("127.0.0.1:9000,chat.example:9000").user("alice")
                .password(PASSWORD);

        assertThatThrownBy(remote::build).isInstanceOf(IllegalStateException.class)
                .hasMessage("plaintext to chat.example:9000, which is not a loopback address: the password would cross "
                        + "the network in clear (expected: TLS, or plaintext allowed explicitly)");
        assertThatCode(() -> remote.allowPlaintext(true).build().close()).doesNotThrowAnyException();
        assertThatCode(() -> remote.allowPlaintext(false).tls(ClientTls.trusting(serverCert)).build().close())
                .doesNotThrowAnyException();
        assertThatCode(() -> CimClient.builder().addresses("localhost:9000,[::1]:9000,127.0.0.5:9000").user("alice")
                .password(PASSWORD).build().close()).doesNotThrowAnyException();
    }

    @Test
    void aPlaintextClient_toldToMoveToAnAddressThatIsNotLoopback_staysOnLoopback() {
        FakeServer server = FakeServer.start("node-a");
        resources.add(server);
        CimClient client = build(builder(server));
        client.connect();
        Connection connection = server.acceptLogin();
        assertThat(client.connect()).succeedsWithin(WAIT);

        // A name that is not loopback by the rule (even if this machine's hosts file says ::1).
        connection.send(Envelopes.goAway("stopping", List.of("ip6-localhost:" + server.address().port()), 50));

        server.acceptLogin();
        assertThat(recorder.events(ConnectionEvent.Connecting.class)).extracting(ConnectionEvent.Connecting::address)
                .containsOnly(server.address());
    }

    @Test
    void trust_thatCannotBeRead_isRefusedSayingWhatWasExpected() throws Exception {
        Path notPem = Files.writeString(dir.resolve("not.pem"), "hello\n");

        assertThatThrownBy(() -> ClientTls.trusting(dir.resolve("missing.pem")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("TLS trust: " + dir.resolve("missing.pem").toAbsolutePath()
                        + " does not exist (expected: a PEM file of the certificates to trust)");
        assertThatThrownBy(() -> ClientTls.trusting(notPem)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("TLS trust: no PEM certificate can be read from " + notPem);
        assertThatThrownBy(() -> ClientTls.systemTrust().serverName(" "))
                .hasMessage("TLS server name: ' ' (expected: a host name or address)");
        assertThat(ClientTls.systemTrust().trust()).isEqualTo("the JDK's trust store");
    }

    private FakeServer tlsServer() {
        FakeServer server = FakeServer.startTls("node-a", serverContext);
        resources.add(server);
        return server;
    }

    private CimClientBuilder builder(FakeServer server) {
        return CimClient.builder()
                .addresses(List.of(server.address()))
                .user("alice")
                .password(PASSWORD)
                .listener(recorder)
                .reconnectBackoff(Duration.ofMillis(20), Duration.ofMillis(200));
    }

    private CimClient build(CimClientBuilder builder) {
        CimClient client = builder.build();
        resources.add(client);
        return client;
    }

    private static CimException failure(java.util.concurrent.CompletableFuture<?> future) {
        Throwable thrown = catchThrowable(() -> future.get(WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS));
        assertThat(thrown).isNotNull().hasCauseInstanceOf(CimException.class);
        return (CimException) thrown.getCause();
    }
}
