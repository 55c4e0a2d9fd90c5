package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cim.client.core.CimClient;
import dev.cim.client.core.CimException;
import dev.cim.client.core.ConnectionEvent;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.Recorder;
import dev.cim.client.core.SendReceipt;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.MessageIds;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.LoginResult;
import dev.cim.server.account.AccountService;
import dev.cim.server.net.CimServer;
import dev.cim.server.support.RawClient;
import dev.cim.server.support.SharedServer;
import dev.cim.server.support.TestServer;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The attacks of a stranger on the network, against a whole server over real TCP with a real Redis:
 * guessing passwords, mass registration, look-alike names, oversized or dripped first frames, many
 * connections from one address, flooding. Each asserts the bounded outcome and a clear reason.
 */
class SecurityIntegrationTest {

    private static final Duration LOGIN_TIMEOUT = Duration.ofMillis(1500);
    private static final int RATE = 20;

    @RegisterExtension
    static final SharedServer shared = new SharedServer(
            "--cim.server.limits.login-timeout=" + LOGIN_TIMEOUT.toMillis() + "ms",
            "--cim.server.limits.connections-per-address=40",
            "--cim.server.limits.unauthenticated-per-address=3",
            "--cim.server.limits.messages-per-second=" + RATE,
            "--cim.server.limits.message-burst=" + RATE,
            "--cim.server.accounts.registrations-per-address=25",
            "--cim.server.accounts.max-login-delay=2s");
    private final TestServer server = shared.server();

    private static LoginResult login(String user, String password) {
        try (RawClient client = RawClient.connect(shared.server().port())) {
            client.send(Envelopes.login(user, password, "", MessageIds.newOrigin()));
            return client.await("the login result", Envelope::hasLoginResult).getLoginResult();
        }
    }

    @Test
    void passwordGuessing_isSlowedAfterFiveFailures_evenForTheRightPassword_andTheClientIsToldWhen() {
        String alice = shared.name("alice");
        assertThat(login(alice, TestServer.PASSWORD).getOk()).isTrue();
        for (int i = 0; i < 5; i++) {
            assertThat(login(alice, "guess number " + i).getReason()).isEqualTo("wrong password for " + alice);
        }

        LoginResult throttled = login(alice, TestServer.PASSWORD);

        assertThat(throttled.getOk()).isFalse();
        assertThat(throttled.getReason()).contains("slowed down after 5 failed logins for " + alice);
        assertThat(throttled.getRetryAfterMillis()).isBetween(1L, 1000L);
        // The library waits as told, then logs in.
        Recorder events = new Recorder();
        CimClient client = server.client(alice, events);
        assertThat(client.connect()).succeedsWithin(Recorder.WAIT);
        assertThat(events.events).noneMatch(e -> e instanceof ConnectionEvent.Refused);
    }

    @Test
    void sessionToken_logsInWithoutThePassword_andARevokedOneIsRefused() {
        String bob = shared.name("bob");
        LoginResult first = login(bob, TestServer.PASSWORD);
        assertThat(first.getSessionToken()).hasSizeGreaterThanOrEqualTo(43);
        assertThat(first.getUserName()).isEqualTo(bob);

        try (RawClient client = RawClient.connect(server.port())) {
            client.send(Envelopes.login(bob.toUpperCase(), "", first.getSessionToken(), MessageIds.newOrigin()));
            LoginResult withToken = client.await("the login result", Envelope::hasLoginResult).getLoginResult();
            assertThat(withToken.getOk()).isTrue();
            assertThat(withToken.getUserName()).isEqualTo(bob);
        }
        assertThat(server.bean(AccountService.class).revokeSessions(bob)).isEqualTo(1);
        try (RawClient client = RawClient.connect(server.port())) {
            client.send(Envelopes.login(bob, "", first.getSessionToken(), MessageIds.newOrigin()));
            assertThat(client.await("the login result", Envelope::hasLoginResult).getLoginResult().getReason())
                    .contains("has expired or was ended");
        }
    }

    @Test
    void names_areCaseInsensitive_andALookAlikeCannotRegister() {
        Recorder carol = new Recorder();
        CimClient carolClient = server.client(shared.name("Carol"), carol);
        carolClient.connect().join();
        CimClient dave = server.client(shared.name("dave"), new Recorder());
        dave.connect().join();

        dave.send(Recipient.user(shared.name("CAROL")), "hello in any case").join();

        assertThat(carol.awaitText("hello in any case").sender()).isEqualTo(shared.name("dave"));
        LoginResult impostor = login(shared.name("caro1"), TestServer.PASSWORD);
        assertThat(impostor.getOk()).isFalse();
        assertThat(impostor.getReason()).contains("looks too much like the existing user " + shared.name("carol"));
    }

    @Test
    void shortPassword_cannotCreateAnAccount() {
        LoginResult result = login(shared.name("erin"), "1234567");

        assertThat(result.getOk()).isFalse();
        assertThat(result.getReason()).contains("at least 8 characters");
        assertThat(server.bean(AccountService.class).exists(shared.name("erin"))).isFalse();
    }

    @Test
    void oversizedFirstFrame_isRefusedBeforeItIsBuffered() {
        try (RawClient attacker = RawClient.connect(server.port())) {
            attacker.sendBytes(Unpooled.wrappedBuffer(new byte[] {0, 0, 0x10, 0})); // 4,096 bytes announced

            Envelope error = attacker.await("the error", Envelope::hasError);

            assertThat(error.getError().getCode()).isEqualTo(ErrorReply.Code.FRAME_TOO_LONG);
            assertThat(error.getError().getMessage()).contains("expected: a login of at most 1024 bytes");
            attacker.awaitClosed(Recorder.WAIT);
        }
    }

    @Test
    void oneBytePerSecond_isClosedAtTheLoginDeadline() {
        try (RawClient slow = RawClient.connect(server.port())) {
            long start = System.nanoTime();
            // A login frame, dripped: traffic does not extend the deadline.
            byte[] login = Envelopes.login(shared.name("slow"), TestServer.PASSWORD, "", 1).toByteArray();
            slow.sendBytes(Unpooled.wrappedBuffer(new byte[] {0, 0, 0, (byte) login.length}));
            for (int i = 0; i < login.length && slow.isOpen(); i++) {
                slow.sendBytes(Unpooled.wrappedBuffer(login, i, 1));
                await().pollDelay(Duration.ofMillis(250)).atMost(Duration.ofMillis(400)).until(() -> true);
            }
            Envelope error = slow.await("the error", Envelope::hasError);

            assertThat(error.getError().getCode()).isEqualTo(ErrorReply.Code.IDLE_TIMEOUT);
            assertThat(error.getError().getMessage()).contains("not logged in within 1500 ms");
            slow.awaitClosed(Recorder.WAIT);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(LOGIN_TIMEOUT.multipliedBy(2));
        }
    }

    @Test
    void connectionsNotLoggedIn_areCappedPerAddress_andALoginFreesAPlace() {
        CimServer cim = server.bean(CimServer.class);
        await("connections of earlier tests are gone").atMost(Recorder.WAIT)
                .until(() -> cim.unauthenticatedConnections() == 0);
        List<RawClient> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                idle.add(RawClient.connect(server.port()));
            }
            await().atMost(Recorder.WAIT).until(() -> cim.unauthenticatedConnections() == 3);
            try (RawClient fourth = RawClient.connect(server.port())) {
                Envelope error = fourth.await("the error", Envelope::hasError);
                assertThat(error.getError().getMessage()).contains("too many connections from 127.0.0.1")
                        .contains("3 of them not logged in");
                fourth.awaitClosed(Recorder.WAIT);
            }
            idle.get(0).send(Envelopes.login(shared.name("frank"), TestServer.PASSWORD, "", MessageIds.newOrigin()));
            idle.get(0).await("the login result", Envelope::hasLoginResult);

            try (RawClient next = RawClient.connect(server.port())) {
                next.send(Envelopes.login(shared.name("gwen"), TestServer.PASSWORD, "", MessageIds.newOrigin()));
                assertThat(next.await("the login result", Envelope::hasLoginResult).getLoginResult().getOk()).isTrue();
            }
        } finally {
            idle.forEach(RawClient::close);
        }
    }

    @Test
    void flood_overTheRateIsRefusedWithWhenToRetry_andNothingIsDroppedSilently() {
        Recorder hank = new Recorder();
        server.client(shared.name("hank"), hank).connect().join();
        CimClient ivan = server.client(shared.name("ivan"), new Recorder());
        ivan.connect().join();

        List<CompletableFuture<SendReceipt>> sent = new ArrayList<>();
        for (int i = 0; i < RATE * 3; i++) {
            sent.add(ivan.send(Recipient.user(shared.name("hank")), "flood " + i));
        }
        int delivered = 0;
        List<CimException> refused = new ArrayList<>();
        for (CompletableFuture<SendReceipt> f : sent) {
            try {
                f.join();
                delivered++;
            } catch (CompletionException e) {
                refused.add((CimException) e.getCause());
            }
        }

        assertThat(delivered + refused.size()).isEqualTo(RATE * 3);
        assertThat(refused).isNotEmpty().allSatisfy(e -> {
            assertThat(e.reason()).isEqualTo(CimException.Reason.RATE_LIMITED);
            assertThat(e.getMessage()).contains("more than " + RATE + " messages per second");
            assertThat(e.retryAfter()).isPositive();
        });
        await().atMost(Recorder.WAIT).until(() -> hank.messages.size() == RATE * 3 - refused.size());
        assertThat(hank.messages).hasSize(delivered);
    }
}
