package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cim.client.core.CimClient;
import dev.cim.client.core.CimException;
import dev.cim.client.core.ClientTls;
import dev.cim.client.core.ConnectionEvent;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.Recorder;
import dev.cim.client.core.SendReceipt;
import dev.cim.common.tls.SelfSignedCertificate;
import dev.cim.common.tls.TlsProvider;
import dev.cim.server.net.PlaintextRefusedException;
import dev.cim.server.redis.RedisKeys;
import dev.cim.server.support.SharedServer;
import dev.cim.server.support.TestServer;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.mock.env.MockEnvironment;

/**
 * TLS on the chat port: a whole server over real TCP on loopback with a certificate made for the
 * test, and clients of the client library trusting it, trusting another, or speaking plaintext.
 */
class TlsIntegrationTest {

    /** Also the login deadline, which the handshake counts against. */
    private static final Duration IDLE_TIMEOUT = Duration.ofMillis(1500);
    private static Path dir;
    private static Path trusted;
    private static Path untrusted;

    @RegisterExtension
    static final SharedServer shared = new SharedServer(TlsIntegrationTest::startServer);
    private final TestServer server = shared.server();

    /** Makes the certificates (one the server's, one no one's), then the server. */
    private static TestServer startServer() {
        try {
            dir = Files.createTempDirectory("cim-tls-test-");
            trusted = dir.resolve("server.pem");
            untrusted = dir.resolve("other.pem");
            SelfSignedCertificate.generate("cim test server", List.of("localhost", "127.0.0.1"), Duration.ofDays(1))
                    .write(trusted, dir.resolve("server-key.pem"));
            SelfSignedCertificate.generate("cim test server", List.of("localhost", "127.0.0.1"), Duration.ofDays(1))
                    .write(untrusted, dir.resolve("other-key.pem"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return TestServer.start(
                "--cim.server.idle-timeout=" + IDLE_TIMEOUT.toMillis() + "ms",
                "--cim.server.limits.login-timeout=" + IDLE_TIMEOUT.toMillis() + "ms",
                "--cim.server.tls.certificate=" + trusted,
                "--cim.server.tls.private-key=" + dir.resolve("server-key.pem"));
    }

    @Test
    void boringSsl_loadsOnLinuxX8664AndAarch64_whereTheServerShipsIt() {
        String arch = System.getProperty("os.arch");
        assumeTrue(System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")
                && (arch.equals("amd64") || arch.equals("aarch64")), "BoringSSL ships for Linux x86-64 and aarch64");

        assertThat(OpenSsl.isAvailable()).as("OpenSSL, unavailable because: %s", OpenSsl.unavailabilityCause()).isTrue();
        assertThat(OpenSsl.versionString()).contains("BoringSSL");
    }

    @Test
    void clientsTrustingTheCertificate_logInAndChat_overTls13() {
        AtomicReference<SslHandler> tls = new AtomicReference<>();
        Recorder bob = new Recorder();
        server.client(server.builder(shared.name("bob"), bob).tls(ClientTls.trusting(trusted))).connect().join();
        CimClient alice = server.client(server.builder(shared.name("alice"), new Recorder()).tls(ClientTls.trusting(trusted))
                .beforeCodec(channel -> tls.set(channel.pipeline().get(SslHandler.class))));
        alice.connect().join();

        alice.send(Recipient.user(shared.name("bob")), "over tls").join();

        bob.awaitText("over tls");
        assertThat(tls.get().engine().getSession().getProtocol()).isEqualTo("TLSv1.3");
    }

    @Test
    void everyProviderPairing_speaksToTheOther() {
        // The shared server uses OpenSSL where it loads; this one the JDK's.
        try (TestServer jdkServer = TestServer.start(
                "--cim.server.tls.certificate=" + trusted,
                "--cim.server.tls.private-key=" + dir.resolve("server-key.pem"),
                "--cim.server.tls.provider=jdk")) {
            for (TestServer s : List.of(server, jdkServer)) {
                Recorder receiver = new Recorder();
                s.client(s.builder(shared.name("r"), receiver).tls(ClientTls.trusting(trusted))).connect().join();
                for (TlsProvider provider : clientProviders()) {
                    String pairing = provider + " client, " + (s == server ? "default" : "JDK") + " server";
                    AtomicReference<SslHandler> tls = new AtomicReference<>();
                    CimClient sender = s.client(s.builder(shared.name("p" + provider.ordinal()), new Recorder())
                            .tls(ClientTls.create(trusted, provider))
                            .beforeCodec(channel -> tls.set(channel.pipeline().get(SslHandler.class))));
                    sender.connect().join();

                    SendReceipt receipt = sender.send(Recipient.user(shared.name("r")), "from the " + pairing).join();

                    assertThat(receipt.outcome()).as(pairing).isEqualTo(SendReceipt.Outcome.DELIVERED);
                    assertThat(receiver.awaitText("from the " + pairing).sender()).isEqualTo(shared.name("p" + provider.ordinal()));
                    assertThat(tls.get().engine() instanceof ReferenceCountedOpenSslEngine)
                            .as("%s: the client's engine is OpenSSL's", pairing).isEqualTo(provider == TlsProvider.OPENSSL);
                }
            }
        }
    }

    /** The client providers there are here: the JDK's, and OpenSSL's where it loads (see the BoringSSL test). */
    private static List<TlsProvider> clientProviders() {
        return OpenSsl.isAvailable() ? List.of(TlsProvider.JDK, TlsProvider.OPENSSL) : List.of(TlsProvider.JDK);
    }

    @Test
    void eachClientProvider_refusesAnUntrustedCertificate_inTheSameWords() {
        for (TlsProvider provider : clientProviders()) {
            CimClient client = server.client(server.builder(shared.name("w" + provider.ordinal()), new Recorder())
                    .tls(ClientTls.create(untrusted, provider)));

            assertThat(failure(client)).as(provider.name()).hasMessageStartingWith("the server at " + server.address()
                    + " failed TLS verification: its certificate is not signed by anyone trusted (");
        }
    }

    @Test
    void theServerName_isWhatTheCertificateIsCheckedAgainst() {
        CimClient wrongName = server.client(server.builder(shared.name("alice"), new Recorder())
                .tls(ClientTls.trusting(trusted).serverName("cim.example")));

        CimException failure = failure(wrongName);

        assertThat(failure.reason()).isEqualTo(CimException.Reason.TLS_FAILED);
        assertThat(failure).hasMessageStartingWith("the server at " + server.address()
                + " failed TLS verification: its certificate is not for cim.example (");
        server.client(server.builder(shared.name("alice"), new Recorder())
                .tls(ClientTls.trusting(trusted).serverName("localhost"))).connect().join();
    }

    @Test
    void aPlaintextClient_failsWithOneLine_stops_andTheServerServesTheOthers() {
        Recorder events = new Recorder();
        CimClient plaintext = server.client(shared.name("alice"), events);

        CimException failure = failure(plaintext);

        assertThat(failure.reason()).isEqualTo(CimException.Reason.TLS_FAILED);
        assertThat(failure.getMessage()).isEqualTo("the server at " + server.address() + " accepts TLS connections "
                + "only, and this client is set for plaintext (expected: TLS turned on)");
        assertThat(events.awaitEvent(ConnectionEvent.TlsFailed.class).reason()).isEqualTo(failure.getMessage());
        assertStoppedAfterOneAttempt(events);
        assertThat(server.redis().hasKey(RedisKeys.account(shared.name("alice")))).as("no login was read").isFalse();
        Recorder bob = new Recorder();
        server.client(server.builder(shared.name("bob"), bob).tls(ClientTls.trusting(trusted))).connect().join();
    }

    @Test
    void aClientNotTrustingTheCertificate_failsWithOneLine_stops_andNeverSentItsPassword() {
        Recorder events = new Recorder();
        CimClient client = server.client(server.builder(shared.name("alice"), events).tls(ClientTls.trusting(untrusted)));

        CimException failure = failure(client);

        assertThat(failure.reason()).isEqualTo(CimException.Reason.TLS_FAILED);
        assertThat(failure.getMessage())
                .startsWith("the server at " + server.address() + " failed TLS verification: its certificate is not "
                        + "signed by anyone trusted (")
                .endsWith("; trusting the certificates in " + untrusted)
                .doesNotContain("\n");
        assertStoppedAfterOneAttempt(events);
        // The first login of a name creates its account: none, so no login (and no password) arrived.
        assertThat(server.redis().hasKey(RedisKeys.account(shared.name("alice")))).isFalse();
    }

    @Test
    void aConnectionThatSendsNothing_isClosedByTheLoginDeadline() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            long start = System.nanoTime();

            readUntilClosed(socket);

            assertClosedByTheDeadline(start);
        }
    }

    @Test
    void aConnectionThatNeverFinishesItsHandshake_isClosedByTheLoginDeadline() throws Exception {
        SSLEngine engine = SSLContext.getDefault().createSSLEngine("localhost", server.port());
        engine.setUseClientMode(true);
        ByteBuffer hello = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), hello);
        hello.flip();
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            long start = System.nanoTime();
            socket.getOutputStream().write(hello.array(), 0, hello.limit()); // a ClientHello, then silence

            int received = readUntilClosed(socket);

            assertThat(received).as("the server answered the hello").isPositive();
            assertClosedByTheDeadline(start);
        }
    }

    @Test
    void plaintextOnAnAddressThatIsNotLoopback_isRefusedAtStart_sayingHowToFixIt() {
        Throwable failure = catchThrowable(() -> TestServer.start("--cim.server.host=0.0.0.0").close());

        PlaintextRefusedException refused = find(failure, PlaintextRefusedException.class);
        assertThat(refused.host()).isEqualTo("0.0.0.0");
        FailureAnalysis analysis = analyze(failure);
        assertThat(analysis.getDescription()).isEqualTo("cim server refuses to listen in plaintext on 0.0.0.0, which "
                + "is not a loopback address: passwords and messages would cross the network in clear.");
        assertThat(analysis.getAction()).contains("--cim.server.tls.certificate=", "--cim.server.host=127.0.0.1",
                "--cim.server.tls.allow-plaintext=true");
    }

    @Test
    void plaintextOnEveryInterface_startsWhenAllowed_andTlsOnEveryInterface_needsNoPermission() {
        try (TestServer plaintext = TestServer.start("--cim.server.host=0.0.0.0", "--cim.server.tls.allow-plaintext=true");
                TestServer tls = TestServer.start("--cim.server.host=0.0.0.0",
                        "--cim.server.tls.certificate=" + trusted,
                        "--cim.server.tls.private-key=" + dir.resolve("server-key.pem"))) {
            plaintext.client(shared.name("alice"), new Recorder()).connect().join(); // over loopback
            tls.client(tls.builder(shared.name("alice"), new Recorder()).tls(ClientTls.trusting(trusted))).connect().join();
        }
    }

    @Test
    void aKeyThatIsNotTheCertificates_stopsTheStart_sayingSo() {
        Throwable failure = catchThrowable(() -> TestServer.start(
                "--cim.server.tls.certificate=" + trusted,
                "--cim.server.tls.private-key=" + dir.resolve("other-key.pem")).close());

        assertThat(analyze(failure).getDescription()).isEqualTo("cim server cannot set up TLS on its chat port: "
                + "cim.server.tls.private-key: the key in " + dir.resolve("other-key.pem") + " is not the key of the "
                + "certificate in " + trusted + " (CN=cim test server).");
    }

    private static CimException failure(CimClient client) {
        Throwable thrown = catchThrowable(() -> client.connect().join());
        assertThat(thrown).isInstanceOf(CompletionException.class).hasCauseInstanceOf(CimException.class);
        return (CimException) thrown.getCause();
    }

    /** The client made one attempt and no more: it stopped rather than retry (backoff 50 ms here). */
    private static void assertStoppedAfterOneAttempt(Recorder events) {
        await().during(Duration.ofMillis(500)).atMost(Recorder.WAIT)
                .until(() -> events.events.stream().filter(ConnectionEvent.Connecting.class::isInstance).count() == 1);
    }

    /** Reads (and drops) what the server sends until it closes; returns how many bytes that was. */
    private static int readUntilClosed(Socket socket) throws IOException {
        socket.setSoTimeout((int) IDLE_TIMEOUT.multipliedBy(4).toMillis());
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        int total = 0;
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                total += n;
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server did not close the connection within " + IDLE_TIMEOUT.multipliedBy(4));
        } catch (java.net.SocketException reset) {
            // closed by the server, with a reset: closed all the same
        }
        return total;
    }

    private static void assertClosedByTheDeadline(long startNanos) {
        Duration open = Duration.ofNanos(System.nanoTime() - startNanos);
        assertThat(open).isBetween(IDLE_TIMEOUT.minusMillis(300), IDLE_TIMEOUT.multipliedBy(3));
    }

    private static <T extends Throwable> T find(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + failure, failure);
    }

    /** What the server's own failure analyzers make of a failed start (what the console shows). */
    private static FailureAnalysis analyze(Throwable failure) {
        assertThat(failure).isNotNull();
        for (FailureAnalyzer analyzer : SpringFactoriesLoader.forDefaultResourceLocation(TlsIntegrationTest.class.getClassLoader())
                .load(FailureAnalyzer.class, SpringFactoriesLoader.ArgumentResolver.of(Environment.class,
                        new MockEnvironment()), (type, name, notMadeHere) -> { })) {
            if (analyzer.getClass().getName().startsWith("dev.cim.server.")) {
                FailureAnalysis analysis = analyzer.analyze(failure);
                if (analysis != null) {
                    return analysis;
                }
            }
        }
        throw new AssertionError("no cim analyzer explains " + failure, failure);
    }
}
