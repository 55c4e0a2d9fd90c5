package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.CimClient;
import dev.cim.client.core.CimException;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.Recorder;
import dev.cim.client.core.SendReceipt;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.MessageIds;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Receipt;
import dev.cim.server.redis.RedisKeys;
import dev.cim.server.support.RawClient;
import dev.cim.server.support.SharedServer;
import dev.cim.server.support.TestServer;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The chat path of one server over real TCP and a real Redis, spoken through the client library (and
 * a raw connection for what the library never does). Each test uses its own user names, so tests do
 * not see each other's accounts or inboxes.
 */
class ChatIntegrationTest {

    private static final Duration IDLE_TIMEOUT = Duration.ofMillis(1500);
    private static final int WINDOW = 50;

    @RegisterExtension
    static final SharedServer shared = new SharedServer(
            "--cim.server.node-id=it-node",
            "--cim.server.idle-timeout=" + IDLE_TIMEOUT.toMillis() + "ms",
            "--cim.server.limits.login-timeout=" + IDLE_TIMEOUT.toMillis() + "ms",
            "--cim.server.max-frame-size=8KB",
            "--cim.server.limits.window-messages=" + WINDOW);
    private final TestServer server = shared.server();

    @Test
    void privateMessage_reachesTheRecipient_andTheReceiptSaysDelivered() {
        Recorder bob = new Recorder();
        shared.online(shared.name("bob"), bob);
        CimClient alice = shared.online(shared.name("alice"), new Recorder());

        SendReceipt receipt = alice.send(Recipient.user(shared.name("bob")), "hi bob").join();

        assertThat(receipt.outcome()).isEqualTo(SendReceipt.Outcome.DELIVERED);
        assertThat(receipt.sessions()).isEqualTo(1);
        ChatMessage received = bob.awaitText("hi bob");
        assertThat(received.sender()).isEqualTo(shared.name("alice"));
        assertThat(received.id()).isEqualTo(receipt.messageId()).startsWith(MessageIds.origin(alice.origin()) + "-");
    }

    @Test
    void broadcast_reachesEveryOtherSession_includingTheSendersOtherTerminal() {
        Recorder bob = new Recorder();
        Recorder aliceElsewhere = new Recorder();
        Recorder aliceHere = new Recorder();
        CimClient bobClient = shared.online(shared.name("bob"), bob);
        shared.online(shared.name("alice"), aliceElsewhere);
        CimClient alice = shared.online(shared.name("alice"), aliceHere);
        String hello = shared.name("hello all ");

        SendReceipt receipt = alice.send(Recipient.EVERYONE, hello).join();

        bob.awaitText(hello);
        aliceElsewhere.awaitText(hello);
        assertThat(receipt.sessions()).isGreaterThanOrEqualTo(2);
        // A later message to alice passes the same way to this terminal: once it is here, the
        // broadcast would have been too.
        bobClient.send(Recipient.user(shared.name("alice")), "marker").join();
        aliceHere.awaitText("marker");
        assertThat(aliceHere.texts()).containsExactly("marker");
    }

    @Test
    void privateMessage_alsoGoesToTheSendersOtherTerminals() {
        Recorder aliceElsewhere = new Recorder();
        shared.online(shared.name("bob"), new Recorder());
        shared.online(shared.name("alice"), aliceElsewhere);
        CimClient alice = shared.online(shared.name("alice"), new Recorder());

        alice.send(Recipient.user(shared.name("bob")), "copy for me").join();

        ChatMessage copy = aliceElsewhere.awaitText("copy for me");
        assertThat(copy.recipient()).isEqualTo(shared.name("bob"));
    }

    @Test
    void offlineRecipient_getsEveryMessageInOrderAtTheNextLogin_andOnlyOnce() {
        shared.online(shared.name("bob"), new Recorder()).close(); // bob exists, and is gone
        CimClient alice = shared.online(shared.name("alice"), new Recorder());
        List<CompletableFuture<SendReceipt>> sent = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            sent.add(alice.send(Recipient.user(shared.name("bob")), "m" + i));
        }
        sent.forEach(f -> assertThat(f.join().outcome()).isEqualTo(SendReceipt.Outcome.STORED));

        Recorder bob = new Recorder();
        CimClient bobBack = shared.online(shared.name("bob"), bob);
        bob.awaitMessages(300);

        assertThat(bob.texts()).containsExactlyElementsOf(IntStream.range(0, 300).mapToObj(i -> "m" + i).toList());
        await("the inbox is emptied once acknowledged").atMost(Recorder.WAIT)
                .until(() -> server.redis().opsForStream().size(RedisKeys.inbox(shared.name("bob"))) == 0);
        bobBack.close();
        Recorder again = new Recorder();
        shared.online(shared.name("bob"), again);
        // A live message follows the inbox's: once it is here, a replay of the inbox would have been too.
        alice.send(Recipient.user(shared.name("bob")), "marker").join();
        again.awaitText("marker");
        assertThat(again.texts()).containsExactly("marker");
    }

    @Test
    void messagesSentWhileTheRecipientLogsIn_arriveAfterTheInbox_inOrder() {
        shared.online(shared.name("bob"), new Recorder()).close();
        CimClient alice = shared.online(shared.name("alice"), new Recorder());
        for (int i = 0; i < 100; i++) {
            alice.send(Recipient.user(shared.name("bob")), "m" + i).join();
        }
        Recorder bob = new Recorder();
        CimClient bobClient = server.client(shared.name("bob"), bob);
        bobClient.connect();
        List<CompletableFuture<SendReceipt>> more = new ArrayList<>();
        for (int i = 100; i < 300; i++) {
            more.add(alice.send(Recipient.user(shared.name("bob")), "m" + i));
        }
        more.forEach(CompletableFuture::join);

        bob.awaitMessages(300);
        assertThat(bob.texts()).containsExactlyElementsOf(IntStream.range(0, 300).mapToObj(i -> "m" + i).toList());
    }

    @Test
    void unknownRecipient_isRefusedSayingSo() {
        CimClient alice = shared.online(shared.name("alice"), new Recorder());

        assertThatThrownBy(() -> alice.send(Recipient.user(shared.name("nobody")), "hello?").join())
                .hasCauseInstanceOf(CimException.class)
                .cause().satisfies(e -> assertThat(((CimException) e).reason()).isEqualTo(CimException.Reason.UNKNOWN_USER))
                .hasMessageContaining("no user named " + shared.name("nobody"));
    }

    @Test
    void wrongPassword_isRefused_andTheClientStops() {
        shared.online(shared.name("carol"), new Recorder()).close();
        CimClient impostor = CimClient.builder().addresses(server.address()).user(shared.name("carol"))
                .password("not the password").build();
        try {
            assertThatThrownBy(() -> impostor.connect().join())
                    .cause().isInstanceOfSatisfying(CimException.class,
                            e -> assertThat(e.reason()).isEqualTo(CimException.Reason.LOGIN_REFUSED))
                    .hasMessageContaining("wrong password");
        } finally {
            impostor.close();
        }
    }

    @Test
    void requestSentAgainUnderItsNumber_isNotRoutedTwice_andIsAnsweredWithItsFirstOutcome() {
        Recorder bob = new Recorder();
        shared.online(shared.name("bob"), bob);
        long origin = MessageIds.newOrigin();
        try (RawClient first = RawClient.connect(server.port()).login(shared.name("alice"), origin)) {
            first.send(Envelopes.send(1, shared.name("bob"), "only once"));
            first.await("the receipt", e -> e.hasReceipts() && e.getReceipts().getRequestIdsList().contains(1L));
        }
        bob.awaitText("only once");
        try (RawClient again = RawClient.connect(server.port()).login(shared.name("alice"), origin)) {
            again.send(Envelopes.send(1, shared.name("bob"), "only once"));
            Envelope answer = again.await("the answer to the resend", Envelope::hasReceipt);
            assertThat(answer.getRequestId()).isEqualTo(1);
            assertThat(answer.getReceipt().getResend()).isTrue();
            assertThat(answer.getReceipt().getOutcome()).isEqualTo(Receipt.Outcome.DELIVERED);
            again.send(Envelopes.send(2, shared.name("bob"), "after"));
            again.await("the receipt of the next", e -> e.hasReceipts() && e.getReceipts().getRequestIdsList().contains(2L));
        }
        bob.awaitText("after");
        assertThat(bob.texts()).containsExactly("only once", "after");
    }

    @Test
    void deliveryNotAcknowledged_comesAgainAtTheNextLogin_andAnAcknowledgedOneDoesNot() {
        CimClient alice = shared.online(shared.name("alice"), new Recorder());
        long origin = MessageIds.newOrigin();
        try (RawClient bob = RawClient.connect(server.port()).login(shared.name("bob"), origin)) {
            CompletableFuture<SendReceipt> first = alice.send(Recipient.user(shared.name("bob")), "not acked");
            bob.await("the delivery", Envelope::hasDelivery);
            // The receipt of a later message, acknowledged by its recipient, comes back the same way:
            // once it is here, a receipt sent for the delivery alone would have been too.
            shared.online(shared.name("carol"), new Recorder());
            alice.send(Recipient.user(shared.name("carol")), "fence").join();
            assertThat(first).as("the receipt before bob acknowledged").isNotDone();
        }
        try (RawClient bob = RawClient.connect(server.port()).login(shared.name("bob"), origin)) {
            Envelope again = bob.await("the delivery again", Envelope::hasDelivery);
            assertThat(again.getDelivery().getChat().getText()).isEqualTo("not acked");
            bob.send(Envelopes.ack(1));
            await("the inbox is empty").atMost(Recorder.WAIT)
                    .until(() -> server.redis().opsForStream().size(RedisKeys.inbox(shared.name("bob"))) == 0);
        }
        try (RawClient bob = RawClient.connect(server.port()).login(shared.name("bob"), origin)) {
            alice.send(Recipient.user(shared.name("bob")), "fence");
            Envelope next = bob.await("the next delivery", Envelope::hasDelivery);
            assertThat(next.getDelivery().getChat().getText()).isEqualTo("fence");
        }
    }

    @Test
    void clientBackOnANewConnectionBeforeTheOldOneEnded_getsWhatTheOldOneHeldFirst_inOrder() {
        // As after a server frozen past the client's idle timeout: the client reconnects while the
        // server still takes its old connection for open, with deliveries on it never acknowledged.
        CimClient alice = shared.online(shared.name("alice"), new Recorder());
        long origin = MessageIds.newOrigin();
        try (RawClient abandoned = RawClient.connect(server.port()).login(shared.name("bob"), origin);
                RawClient bob = RawClient.connect(server.port())) {
            alice.send(Recipient.user(shared.name("bob")), "first");
            alice.send(Recipient.user(shared.name("bob")), "second");
            await("both on the old connection").atMost(Recorder.WAIT)
                    .until(() -> abandoned.received.stream().filter(Envelope::hasDelivery).count() == 2);

            bob.login(shared.name("bob"), origin);
            alice.send(Recipient.user(shared.name("bob")), "third");

            await("three deliveries on the new connection").atMost(Recorder.WAIT).pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        bob.send(Envelopes.ping(System.currentTimeMillis())); // this one stays; the old one is silent
                        return bob.received.stream().filter(Envelope::hasDelivery).count() >= 3;
                    });
            assertThat(bob.received.stream().filter(Envelope::hasDelivery).map(e -> e.getDelivery().getChat().getText()))
                    .containsExactly("first", "second", "third");
            abandoned.awaitClosed(Recorder.WAIT);
        }
    }

    @Test
    void recipientThatStopsReading_isDisconnectedWithAReason_andNothingIsLost() {
        CimClient alice = shared.online(shared.name("alice"), new Recorder());
        try (RawClient bob = RawClient.connect(server.port()).login(shared.name("bob"), MessageIds.newOrigin())) {
            int before = bob.received.size();
            List<CompletableFuture<SendReceipt>> sent = new ArrayList<>();
            for (int i = 0; i < WINDOW * 3; i++) {
                sent.add(alice.send(Recipient.user(shared.name("bob")), "flood " + i));
            }
            bob.awaitClosed(Recorder.WAIT);
            sent.forEach(f -> assertThat(f.join().outcome()).isIn(SendReceipt.Outcome.STORED, SendReceipt.Outcome.DELIVERED));
            assertThat(bob.received.subList(before, bob.received.size()))
                    .anySatisfy(e -> assertThat(e.getError().getMessage()).contains("not reading"));
        }
        Recorder bob = new Recorder();
        shared.online(shared.name("bob"), bob);
        bob.awaitMessages(WINDOW * 3);
        assertThat(bob.texts()).containsExactlyElementsOf(IntStream.range(0, WINDOW * 3).mapToObj(i -> "flood " + i).toList());
    }

    @Test
    void impossibleAcknowledgement_closesTheConnectionSayingWhatWasExpected() {
        try (RawClient bob = RawClient.connect(server.port()).login(shared.name("bob"), MessageIds.newOrigin())) {
            bob.send(Envelopes.ack(5));
            Envelope error = bob.await("the error", Envelope::hasError);
            assertThat(error.getError().getMessage()).contains("expected: at most the number delivered");
            bob.awaitClosed(Recorder.WAIT);
        }
    }

    @Test
    void onlineUsers_askedRightAfterTheLogin_listTheAskerAndWhoLoggedInBefore() {
        CimClient bob = shared.online(shared.name("bob"), new Recorder());
        CimClient alice = shared.online(shared.name("alice"), new Recorder());

        // No wait: the store's presence is written behind the login, the node's own sessions are not.
        assertThat(alice.onlineUsers().join()).contains(shared.name("alice"), shared.name("bob"));
        assertThat(bob.onlineUsers().join()).contains(shared.name("alice"), shared.name("bob"));
    }

    @Test
    void onlineUsers_manyMoreThanFitInOneFrame_arriveWhole() {
        int users = 1_050;
        io.netty.channel.EventLoopGroup group = new io.netty.channel.MultiThreadIoEventLoopGroup(2,
                io.netty.channel.nio.NioIoHandler.newFactory());
        List<CimClient> clients = new ArrayList<>();
        try {
            List<CompletableFuture<?>> logins = new ArrayList<>();
            for (int i = 0; i < users; i++) {
                CimClient client = CimClient.builder().addresses(server.address()).user(shared.name("u") + "x" + i)
                        .password(TestServer.PASSWORD).eventLoopGroup(group, io.netty.channel.socket.nio.NioSocketChannel.class)
                        .build();
                clients.add(client);
                logins.add(client.connect());
            }
            logins.forEach(CompletableFuture::join);

            // A login is answered before its presence reaches Redis (the user's lane writes it next).
            await("every login is in the presence").atMost(Recorder.WAIT)
                    .until(() -> clients.get(0).onlineUsers().join().size() >= users);
            List<String> online = clients.get(0).onlineUsers().join();

            assertThat(online).hasSizeGreaterThanOrEqualTo(users).contains(shared.name("u") + "x0", shared.name("u") + "x" + (users - 1));
            assertThat(online).isSorted();
        } finally {
            clients.forEach(CimClient::close);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Test
    void silentConnection_isClosedAfterTheIdleTimeout_evenIfItLoggedIn() {
        try (RawClient quiet = RawClient.connect(server.port()).login(shared.name("quiet"), MessageIds.newOrigin())) {
            Envelope error = quiet.await("the idle error", Envelope::hasError);
            assertThat(error.getError().getCode()).isEqualTo(ErrorReply.Code.IDLE_TIMEOUT);
            quiet.awaitClosed(IDLE_TIMEOUT.multipliedBy(4));
        }
    }

    @Test
    void connectionThatNeverLogsIn_isClosedAtTheLoginDeadline_whateverItSends() {
        try (RawClient slow = RawClient.bytes(server.port())) {
            long start = System.nanoTime();
            // One byte at a time, never a whole frame: traffic does not extend the deadline.
            for (int i = 0; i < 30 && slow.isOpen(); i++) {
                slow.sendBytes(Unpooled.wrappedBuffer(new byte[] {0}));
                await().pollDelay(Duration.ofMillis(100)).atMost(Duration.ofMillis(200)).until(() -> true);
            }
            slow.awaitClosed(IDLE_TIMEOUT.multipliedBy(3));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(IDLE_TIMEOUT.multipliedBy(3));
        }
    }

    @Test
    void garbageFrame_closesOnlyThatConnection_sayingWhy() {
        Recorder bob = new Recorder();
        shared.online(shared.name("bob"), bob);
        CimClient alice = shared.online(shared.name("alice"), new Recorder());
        try (RawClient attacker = RawClient.bytes(server.port())) {
            attacker.sendBytes(Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 4, 1, 2, 3, 4}));
            attacker.awaitClosed(Recorder.WAIT);
        }
        alice.send(Recipient.user(shared.name("bob")), "still here").join();
        bob.awaitText("still here");
    }

    @Test
    void frameLongerThanTheMaximum_closesTheConnectionSayingSo() {
        try (RawClient attacker = RawClient.connect(server.port())) {
            attacker.sendBytes(Unpooled.wrappedBuffer(new byte[] {0, 1, 0, 0})); // 65536 bytes announced
            Envelope error = attacker.await("the error", Envelope::hasError);
            assertThat(error.getError().getCode()).isEqualTo(ErrorReply.Code.FRAME_TOO_LONG);
            attacker.awaitClosed(Recorder.WAIT);
        }
    }

    @Test
    void somethingOtherThanALoginFirst_isRefusedAndClosed() {
        try (RawClient eager = RawClient.connect(server.port())) {
            eager.send(Envelopes.send(1, "bob", "hi"));
            Envelope error = eager.await("the error", Envelope::hasError);
            assertThat(error.getError().getCode()).isEqualTo(ErrorReply.Code.NOT_LOGGED_IN);
            eager.awaitClosed(Recorder.WAIT);
        }
    }
}
