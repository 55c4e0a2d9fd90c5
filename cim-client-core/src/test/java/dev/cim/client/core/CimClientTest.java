package dev.cim.client.core;

import static dev.cim.client.core.FakeServer.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.cim.client.core.FakeServer.Connection;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.MessageIds;
import dev.cim.common.protocol.proto.AccountSettings;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.Envelope.KindCase;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.LoginResult;
import dev.cim.common.protocol.proto.Receipt;
import dev.cim.common.protocol.proto.Receipts;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.ScheduledChange.Kind;
import dev.cim.testkit.Ports;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client library against a {@link FakeServer} the test scripts frame by frame: what the client
 * sends, when, with which request ids, and what it makes of what the server answers.
 */
class CimClientTest {

    private static final Instant SENT_AT = Instant.parse("2027-03-27T13:05:10Z");
    private static final String BOB_ORIGIN = "00000000000000b0";

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Recorder recorder = new Recorder();

    @AfterEach
    void closeAll() throws Exception {
        Collections.reverse(resources);
        for (AutoCloseable resource : resources) {
            resource.close();
        }
    }

    // Logging in.

    @Test
    void connect_loginAccepted_completesWithWhatTheServerSaid() {
        FakeServer server = server("node-a");
        CimClient client = build(builder(server));

        CompletableFuture<LoginInfo> connect = client.connect();
        Connection connection = server.nextConnection();
        Envelope login = connection.next(KindCase.LOGIN);

        assertThat(login.getVersion()).isEqualTo(Envelopes.PROTOCOL_VERSION);
        assertThat(login.getLogin().getUserName()).isEqualTo("alice");
        assertThat(login.getLogin().getPassword()).isEqualTo("secret");
        assertThat(login.getLogin().getToken()).isEmpty();
        assertThat(login.getLogin().getOrigin()).isNotZero().isEqualTo(client.origin());
        assertThat(connect).as("not logged in before the server says so").isNotDone();
        assertThat(client.isConnected()).isFalse();

        connection.send(Envelopes.loginAccepted(LoginResult.newBuilder()
                .setNodeId("node-a")
                .setAccountCreated(true)
                .setHeartbeatIntervalMillis(FakeServer.HEARTBEAT_MILLIS)
                .setMaxTextLength(500)
                .setMaxScheduleMillis(Duration.ofDays(1).toMillis())
                .setMaxScheduled(1000)
                .setMessagesPerSecond(50)
                .setMessageBurst(200)
                .setSettings(AccountSettings.newBuilder().setZone("Europe/Berlin"))
                .addNodes("127.0.0.1:9001")
                .addNodes("not an address")));

        assertThat(connect).succeedsWithin(WAIT).isEqualTo(new LoginInfo("node-a", true,
                Duration.ofMillis(FakeServer.HEARTBEAT_MILLIS), 500, Duration.ofDays(1),
                List.of(new ServerAddress("127.0.0.1", 9001)), 1000, 50, 200,
                Optional.of(ZoneId.of("Europe/Berlin"))));
        assertThat(client.zone()).contains(ZoneId.of("Europe/Berlin"));
        assertThat(client.isConnected()).isTrue();
        assertThat(recorder.awaitEvent(ConnectionEvent.Connected.class))
                .isEqualTo(new ConnectionEvent.Connected(server.address(), "node-a", true, 0));
    }

    @Test
    void aClient_pingsEveryHeartbeatInterval_whetherItWritesOrNot() {
        FakeServer server = server("node-a");
        CimClient client = build(builder(server));
        Connection connection = loggedIn(server, client, 50);
        assertThat(client.connect()).succeedsWithin(WAIT);

        int before = pings(connection);
        long end = System.nanoTime() + Duration.ofMillis(400).toNanos();
        for (int i = 0; System.nanoTime() < end; i++) { // writing all along, far more often than every 50 ms
            CompletableFuture<SendReceipt> sent = client.send(Recipient.EVERYONE, "busy " + i);
            Envelope send = connection.next(Envelope.KindCase.SEND);
            connection.send(Envelopes.receipt(send.getRequestId(), Receipt.Outcome.DELIVERED,
                    MessageIds.of(client.origin(), send.getRequestId()), 1, "", false));
            assertThat(sent).succeedsWithin(WAIT);
        }
        assertThat(pings(connection) - before).as("pings while writing for 8 intervals").isGreaterThanOrEqualTo(3);
    }

    /** Connects {@code client} and logs it in with the heartbeat interval {@code heartbeatMillis}. */
    private static Connection loggedIn(FakeServer server, CimClient client, long heartbeatMillis) {
        client.connect();
        Connection connection = server.nextConnection();
        connection.login(LoginResult.newBuilder().setNodeId("node-a").setHeartbeatIntervalMillis(heartbeatMillis));
        connection.answerRefresh(List.of());
        return connection;
    }

    private static int pings(Connection connection) {
        return (int) connection.all().stream().filter(e -> e.getKindCase() == Envelope.KindCase.PING).count();
    }

    @Test
    void send_textOverTheServersLimit_failsAtOnceAndSendsNothing() {
        FakeServer server = server("node-a");
        CimClient client = build(builder(server));
        client.connect();
        Connection connection = server.nextConnection();
        connection.login(LoginResult.newBuilder().setNodeId("node-a").setMaxTextLength(10)
                .setHeartbeatIntervalMillis(FakeServer.HEARTBEAT_MILLIS));
        connection.answerRefresh(List.of());
        assertThat(client.connect()).succeedsWithin(WAIT);

        CimException tooLong = failure(client.send(Recipient.EVERYONE, "x".repeat(11)));
        CimException blank = failure(client.send(Recipient.EVERYONE, "  "));

        assertThat(tooLong.reason()).isEqualTo(CimException.Reason.BAD_REQUEST);
        assertThat(tooLong).hasMessageContaining("at most 10");
        assertThat(blank.reason()).isEqualTo(CimException.Reason.BAD_REQUEST);
        CompletableFuture<SendReceipt> fits = client.send(Recipient.EVERYONE, "x".repeat(10));
        assertThat(connection.next(KindCase.SEND).getSend().getText()).as("the first Send to reach the server")
                .isEqualTo("x".repeat(10));
        assertThat(fits).isNotDone();
    }

    @Test
    void connect_loginRefused_failsWithLoginRefusedAndStopsTrying() {
        FakeServer server = server("node-a");
        CimClient client = build(builder(server));
        CompletableFuture<LoginInfo> connect = client.connect();
        CompletableFuture<SendReceipt> waiting = client.send(Recipient.user("bob"), "never sent");

        Connection connection = server.nextConnection();
        connection.next(KindCase.LOGIN);
        connection.send(Envelopes.loginRefused("wrong password"));

        CimException refused = failure(connect);
        assertThat(refused.reason()).isEqualTo(CimException.Reason.LOGIN_REFUSED);
        assertThat(refused).hasMessageContaining("wrong password");
        assertThat(failure(waiting).reason()).isEqualTo(CimException.Reason.LOGIN_REFUSED);
        assertThat(recorder.awaitEvent(ConnectionEvent.Refused.class))
                .isEqualTo(new ConnectionEvent.Refused("wrong password"));
        await().atMost(WAIT).until(() -> !connection.isOpen());
        // With a 20 ms backoff a client still trying would have connected again many times over.
        await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> server.connectionCount() == 1);
        assertThat(connection.all()).extracting(Envelope::getKindCase).containsOnly(KindCase.LOGIN);
    }

    @Test
    void connect_tokenRefused_logsInWithThePasswordThenUsesTheNewToken() {
        FakeServer server = server("node-a");
        CimClient client = build(builder(server).token("old-token"));
        CompletableFuture<LoginInfo> connect = client.connect();

        Connection first = server.nextConnection();
        Envelope withToken = first.next(KindCase.LOGIN);
        first.send(Envelopes.loginRefused("the session token has expired"));
        Connection second = server.nextConnection();
        Envelope withPassword = second.login(LoginResult.newBuilder().setNodeId("node-a").setSessionToken("new-token")
                .setHeartbeatIntervalMillis(FakeServer.HEARTBEAT_MILLIS));
        second.answerRefresh(List.of());
        assertThat(connect).succeedsWithin(WAIT);
        second.cut();
        Envelope withNewToken = server.acceptLogin().all().get(0);

        assertThat(withToken.getLogin().getToken()).isEqualTo("old-token");
        assertThat(withToken.getLogin().getPassword()).as("no password next to a token").isEmpty();
        assertThat(withPassword.getLogin().getToken()).isEmpty();
        assertThat(withPassword.getLogin().getPassword()).isEqualTo("secret");
        assertThat(withNewToken.getLogin().getToken()).isEqualTo("new-token");
        assertThat(withNewToken.getLogin().getPassword()).isEmpty();
        assertThat(recorder.events(ConnectionEvent.Refused.class)).as("a refused token is no refused login").isEmpty();
    }

    @Test
    void connect_loginThrottled_saysWhyAndTriesAgainAfterTheServersDelay() {
        FakeServer server = server("node-a");
        CimClient client = build(builder(server));
        CompletableFuture<LoginInfo> connect = client.connect();

        Connection first = server.nextConnection();
        first.next(KindCase.LOGIN);
        first.send(Envelopes.loginRefused("slowed down after 5 failed logins for alice; try again in 1 s", 300));
        server.acceptLogin();

        assertThat(connect).succeedsWithin(WAIT);
        assertThat(recorder.events(ConnectionEvent.Disconnected.class)).singleElement().satisfies(lost -> {
            assertThat(lost.reason()).contains("refused the login for now: slowed down after 5 failed logins");
            assertThat(lost.retryIn()).isEqualTo(Duration.ofMillis(300));
        });
        assertThat(recorder.events(ConnectionEvent.Refused.class)).as("throttled is not refused for good").isEmpty();
    }

    @Test
    void connect_afterATokenWasGiven_thePasswordIsForgotten_soARevokedSessionStopsTheClient() {
        FakeServer server = server("node-a");
        CimClient client = build(builder(server));
        CompletableFuture<LoginInfo> connect = client.connect();
        Connection first = server.nextConnection();
        first.login(LoginResult.newBuilder().setNodeId("node-a").setSessionToken("t-1")
                .setHeartbeatIntervalMillis(FakeServer.HEARTBEAT_MILLIS));
        first.answerRefresh(List.of());
        assertThat(connect).succeedsWithin(WAIT);

        first.cut();
        Connection second = server.nextConnection();
        Envelope login = second.next(KindCase.LOGIN);
        second.send(Envelopes.loginRefused("the session of alice has expired or was ended"));

        assertThat(login.getLogin().getToken()).isEqualTo("t-1");
        assertThat(recorder.awaitEvent(ConnectionEvent.Refused.class).reason()).contains("expired or was ended");
        await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> server.connectionCount() == 2);
    }

    @Test
    void connect_firstAddressRefusesConnections_logsInOnTheSecond() {
        FakeServer server = server("node-b");
        ServerAddress dead = deadAddress();
        RandomGenerator startAtTheFirst = () -> 0L; // the link starts at address 0, and waits b/2
        CimClient client = build(builder(server).addresses(List.of(dead, server.address())).random(startAtTheFirst));

        CompletableFuture<LoginInfo> connect = client.connect();
        server.acceptLogin();

        assertThat(connect).succeedsWithin(WAIT);
        assertThat(recorder.events).first().isEqualTo(new ConnectionEvent.Connecting(dead, 1));
        assertThat(recorder.events(ConnectionEvent.Disconnected.class)).first()
                .satisfies(lost -> assertThat(lost.reason()).contains("cannot reach " + dead));
        assertThat(recorder.events(ConnectionEvent.Connecting.class)).last()
                .isEqualTo(new ConnectionEvent.Connecting(server.address(), 2));
        assertThat(recorder.events(ConnectionEvent.Connected.class)).singleElement()
                .isEqualTo(new ConnectionEvent.Connected(server.address(), "node-b", false, 0));
    }

    // Sending.

    @Test
    void send_completesOnlyWithTheReceiptOfItsOwnRequestId() {
        FakeServer server = server("node-a");
        CimClient client = connected(server);
        Connection connection = server.connectionsSoFar().get(0);

        CompletableFuture<SendReceipt> first = client.send(Recipient.user("bob"), "one");
        CompletableFuture<SendReceipt> second = client.send(Recipient.EVERYONE, "two");
        Envelope sendOne = connection.next(KindCase.SEND);
        Envelope sendTwo = connection.next(KindCase.SEND);

        assertThat(sendOne.getSend().getRecipient()).isEqualTo("bob");
        assertThat(sendOne.getSend().getText()).isEqualTo("one");
        assertThat(sendTwo.getSend().getRecipient()).isEqualTo("everyone");
        assertThat(sendTwo.getRequestId()).isGreaterThan(sendOne.getRequestId());

        String idTwo = MessageIds.of(client.origin(), sendTwo.getRequestId());
        connection.send(Envelopes.receipt(sendTwo.getRequestId(), Receipt.Outcome.DELIVERED, idTwo, 3, "", false));
        assertThat(second).succeedsWithin(WAIT).isEqualTo(new SendReceipt(idTwo, SendReceipt.Outcome.DELIVERED, 3, "", false));
        assertThat(first).as("answered only by its own receipt").isNotDone();

        String idOne = MessageIds.of(client.origin(), sendOne.getRequestId());
        connection.send(Envelopes.receipt(sendOne.getRequestId(), Receipt.Outcome.STORED, idOne, 0, "bob", true));
        assertThat(first).succeedsWithin(WAIT).isEqualTo(new SendReceipt(idOne, SendReceipt.Outcome.STORED, 0, "bob", true));
        assertThat(client.unanswered()).isZero();
    }

    @Test
    void send_receiptsFrame_answersEachSendItNames_asDeliveredWithItsId() {
        FakeServer server = server("node-a");
        CimClient client = connected(server);
        Connection connection = server.connectionsSoFar().get(0);
        CompletableFuture<SendReceipt> first = client.send(Recipient.user("bob"), "one");
        CompletableFuture<SendReceipt> second = client.send(Recipient.user("carol"), "two");
        CompletableFuture<SendReceipt> third = client.send(Recipient.user("dave"), "three");
        long one = connection.next(KindCase.SEND).getRequestId();
        long two = connection.next(KindCase.SEND).getRequestId();
        long three = connection.next(KindCase.SEND).getRequestId();

        connection.send(Envelopes.receipts(Receipts.newBuilder()
                .addRequestIds(three).addSessions(2)
                .addRequestIds(one).addSessions(1)
                .build()));

        assertThat(first).succeedsWithin(WAIT).isEqualTo(new SendReceipt(MessageIds.of(client.origin(), one),
                SendReceipt.Outcome.DELIVERED, 1, "", false));
        assertThat(third).succeedsWithin(WAIT).isEqualTo(new SendReceipt(MessageIds.of(client.origin(), three),
                SendReceipt.Outcome.DELIVERED, 2, "", false));
        assertThat(second).as("not named in the frame").isNotDone();
        assertThat(client.unanswered()).isEqualTo(1);
    }

    @Test
    void send_errorReply_failsWithTheServersReasonAndTheConnectionStays() {
        FakeServer server = server("node-a");
        CimClient client = connected(server);
        Connection connection = server.connectionsSoFar().get(0);

        CompletableFuture<SendReceipt> toNobody = client.send(Recipient.user("nobody"), "hello?");
        long id = connection.next(KindCase.SEND).getRequestId();
        connection.send(Envelopes.error(id, ErrorReply.Code.UNKNOWN_USER, "no user named nobody", false));
        CompletableFuture<SendReceipt> tooFast = client.send(Recipient.user("bob"), "again");
        long fastId = connection.next(KindCase.SEND).getRequestId();
        connection.send(Envelopes.rateLimited(fastId, "slow down", 1500));

        CimException unknown = failure(toNobody);
        assertThat(unknown.reason()).isEqualTo(CimException.Reason.UNKNOWN_USER);
        assertThat(unknown).hasMessage("no user named nobody");
        CimException limited = failure(tooFast);
        assertThat(limited.reason()).isEqualTo(CimException.Reason.RATE_LIMITED);
        assertThat(limited.retryAfter()).isEqualTo(Duration.ofMillis(1500));
        assertThat(client.isConnected()).isTrue();
        assertThat(client.unanswered()).isZero();
    }

    /**
     * The server's storage fails over: it refuses two messages for now, and the client writes both
     * again after the wait it gave, in order, under the same request ids (so the same message ids);
     * the receipts complete them, and the program never sees the refusal.
     */
    @Test
    void send_refusedForNow_isWrittenAgainUnderTheSameId_inOrder_andCompletesWithItsReceipt() {
        FakeServer server = server("node-a");
        CimClient client = connected(server);
        Connection connection = server.connectionsSoFar().get(0);

        CompletableFuture<SendReceipt> first = client.send(Recipient.user("bob"), "one");
        CompletableFuture<SendReceipt> second = client.send(Recipient.user("bob"), "two");
        Envelope one = connection.next(KindCase.SEND);
        Envelope two = connection.next(KindCase.SEND);
        connection.send(Envelopes.tryAgain(one.getRequestId(), "message not sent: the server's storage is unavailable", 50));
        connection.send(Envelopes.tryAgain(two.getRequestId(), "not sent yet: an earlier message to bob", 50));

        Envelope oneAgain = connection.next(KindCase.SEND);
        Envelope twoAgain = connection.next(KindCase.SEND);
        assertThat(oneAgain).isEqualTo(one);
        assertThat(twoAgain).isEqualTo(two);
        assertThat(first).as("still waiting, not failed").isNotDone();
        connection.send(Envelopes.receipts(Receipts.newBuilder().addRequestIds(one.getRequestId()).addSessions(1)
                .addRequestIds(two.getRequestId()).addSessions(1).build()));

        assertThat(first).succeedsWithin(WAIT).extracting(SendReceipt::messageId)
                .isEqualTo(MessageIds.of(client.origin(), one.getRequestId()));
        assertThat(second).succeedsWithin(WAIT);
        assertThat(client.unanswered()).isZero();
    }

    @Test
    void send_whileDisconnected_isHeldAndSentAfterTheNextLogin() {
        FakeServer server = server("node-a");
        CimClient client = connected(server);
        Connection first = server.connectionsSoFar().get(0);
        server.stopListening();
        first.cut();
        recorder.awaitEvent(ConnectionEvent.Disconnected.class);

        CompletableFuture<SendReceipt> held = client.send(Recipient.user("bob"), "while you were away");
        assertThat(client.isConnected()).isFalse();
        assertThat(client.unanswered()).isEqualTo(1);
        server.listenAgain();
        Connection second = server.nextConnection();
        Envelope login = second.login(LoginResult.newBuilder().setNodeId("node-a")
                .setHeartbeatIntervalMillis(FakeServer.HEARTBEAT_MILLIS));
        Envelope send = second.next(KindCase.SEND);

        assertThat(login.getLogin().getOrigin()).as("the same origin after a reconnection").isEqualTo(client.origin());
        assertThat(send.getSend().getText()).isEqualTo("while you were away");
        assertThat(held).isNotDone();
        String id = MessageIds.of(client.origin(), send.getRequestId());
        second.send(Envelopes.receipt(send.getRequestId(), Receipt.Outcome.DELIVERED, id, 1, "", false));
        assertThat(held).succeedsWithin(WAIT).extracting(SendReceipt::messageId).isEqualTo(id);
        assertThat(recorder.events(ConnectionEvent.Connected.class)).last()
                .extracting(ConnectionEvent.Connected::resent).isEqualTo(1);
    }

    @Test
    void reconnect_resendsEveryUnansweredRequest_withTheSameIdsInOrder() {
        FakeServer server = server("node-a");
        CimClient client = connected(server);
        Connection first = server.connectionsSoFar().get(0);

        List<CompletableFuture<?>> asked = List.of(
                client.send(Recipient.user("bob"), "first"),
                client.schedule(Recipient.user("bob"), "later", Duration.ofHours(3)),
                client.send(Recipient.EVERYONE, "second"),
                client.onlineUsers(),
                client.cancel(BOB_ORIGIN + "-3"));
        List<Envelope> sent = new ArrayList<>();
        for (int i = 0; i < asked.size(); i++) {
            sent.add(first.next());
        }
        Envelope schedule = sent.get(1);
        first.send(Envelopes.scheduledChange(schedule.getRequestId(), Kind.SCHEDULED,
                scheduled(MessageIds.of(client.origin(), schedule.getRequestId()), 1, "later", Instant.now().plus(Duration.ofHours(3)))));
        assertThat(asked.get(1)).succeedsWithin(WAIT);
        first.cut();

        Connection second = server.nextConnection();
        second.login(LoginResult.newBuilder().setNodeId("node-a").setHeartbeatIntervalMillis(FakeServer.HEARTBEAT_MILLIS));
        List<Envelope> resent = List.of(second.next(), second.next(), second.next(), second.next());
        second.answerRefresh(List.of());

        assertThat(sent).extracting(Envelope::getKindCase).containsExactly(KindCase.SEND, KindCase.SCHEDULE,
                KindCase.SEND, KindCase.ONLINE_USERS_REQUEST, KindCase.CANCEL);
        assertThat(sent).extracting(Envelope::getRequestId).isSorted().doesNotHaveDuplicates();
        assertThat(resent).as("the unanswered requests, as first sent: same ids, same order")
                .containsExactly(sent.get(0), sent.get(2), sent.get(3), sent.get(4));
        assertThat(recorder.events(ConnectionEvent.Connected.class)).last()
                .extracting(ConnectionEvent.Connected::resent).isEqualTo(4);
        assertThat(asked.get(0)).isNotDone();
        assertThat(asked.get(2)).isNotDone();
    }

    @Test
    void goAway_namingAnotherNode_reconnectsThereAndResends() {
        FakeServer leaving = server("node-a");
        FakeServer other = server("node-b");
        CimClient client = connected(leaving);
        Connection connection = leaving.connectionsSoFar().get(0);
        CompletableFuture<SendReceipt> unanswered = client.send(Recipient.user("bob"), "across nodes");
        Envelope send = connection.next(KindCase.SEND);

        connection.send(Envelopes.goAway("node-a is stopping", List.of(other.address().toString()), 200));

        Connection moved = other.nextConnection();
        assertThat(moved.login(LoginResult.newBuilder().setNodeId("node-b")
                .setHeartbeatIntervalMillis(FakeServer.HEARTBEAT_MILLIS)).getLogin().getOrigin()).isEqualTo(client.origin());
        assertThat(moved.next()).as("the unanswered Send, resent to the other node").isEqualTo(send);
        assertThat(leaving.connectionCount()).isEqualTo(1);
        ConnectionEvent.GoingAway away = recorder.awaitEvent(ConnectionEvent.GoingAway.class);
        assertThat(away.reason()).isEqualTo("node-a is stopping");
        assertThat(away.retryIn()).isBetween(Duration.ZERO, Duration.ofMillis(200));
        assertThat(unanswered).isNotDone();
    }

    @Test
    void goAway_withoutNodes_reconnectsToTheSameAddress() {
        FakeServer server = server("node-a");
        CimClient client = connected(server);
        Connection connection = server.connectionsSoFar().get(0);

        connection.send(Envelopes.goAway("restarting", List.of(), 100));
        Envelope login = server.acceptLogin().all().get(0);

        assertThat(login.getLogin().getOrigin()).isEqualTo(client.origin());
        assertThat(recorder.awaitEvent(ConnectionEvent.GoingAway.class).retryIn())
                .isBetween(Duration.ZERO, Duration.ofMillis(100));
        assertThat(recorder.events(ConnectionEvent.Connected.class)).hasSize(2);
    }

    @Test
    void goAway_beforeTheLoginIsAnswered_movesToANamedNode_afterAtLeastTheBackoff() {
        FakeServer full = server("node-a");
        FakeServer other = server("node-b");
        CimClient client = build(builder(full).reconnectBackoff(Duration.ofMillis(400), Duration.ofSeconds(1)));
        CompletableFuture<LoginInfo> connect = client.connect();
        Connection refused = full.nextConnection();
        refused.next(KindCase.LOGIN);

        refused.send(Envelopes.goAway("node-a is full", List.of(other.address().toString()), 0));

        other.acceptLogin();
        assertThat(connect).succeedsWithin(WAIT);
        ConnectionEvent.GoingAway away = recorder.awaitEvent(ConnectionEvent.GoingAway.class);
        assertThat(away.reason()).isEqualTo("node-a is full");
        assertThat(away.retryIn()).as("a refusal waits as a failed attempt would, spread or not")
                .isBetween(Duration.ofMillis(200), Duration.ofMillis(400));
        assertThat(full.connectionCount()).isEqualTo(1);
    }

    @Test
    void goAway_namingSeveralNodes_sendsTheClientsToEachOfThem() {
        FakeServer leaving = server("node-a");
        List<FakeServer> others = List.of(server("node-b"), server("node-c"), server("node-d"));
        List<String> named = others.stream().map(other -> other.address().toString()).toList();
        java.util.Set<FakeServer> reached = new java.util.HashSet<>();
        for (int seed = 0; seed < 40 && reached.size() < others.size(); seed++) {
            int[] before = others.stream().mapToInt(FakeServer::connectionCount).toArray();
            CimClient client = build(builder(leaving).listener(new Recorder()).random(new java.util.Random(seed)));
            client.connect();
            leaving.acceptLogin().send(Envelopes.goAway("node-a is stopping", named, 0));
            FakeServer moved = await("the client moves").atMost(WAIT).until(() -> {
                for (int i = 0; i < others.size(); i++) {
                    if (others.get(i).connectionCount() > before[i]) {
                        return others.get(i);
                    }
                }
                return null;
            }, java.util.Objects::nonNull);
            reached.add(moved);
            client.close();
        }
        assertThat(reached).as("clients told the same list, each picking one of its nodes at random")
                .containsExactlyInAnyOrderElementsOf(others);
    }

    // Receiving.

    @Test
    void deliveries_areShownOncePerIdAndAcknowledgedWithTheConnectionsCount() {
        FakeServer server = server("node-a");
        CimClient client = connected(server);
        Connection first = server.connectionsSoFar().get(0);
        Chat hello = chat("bob", BOB_ORIGIN + "-1", "everyone", "hello");
        Chat delayed = chat("bob", BOB_ORIGIN + "-2", "alice", "dinner").toBuilder()
                .setDelay(Chat.Delay.newBuilder().setRequestedMillis(5000).setDueAtMillis(SENT_AT.toEpochMilli())
                        .setFiredByServer(true))
                .build();
        Chat sameIdOtherSender = chat("carol", BOB_ORIGIN + "-1", "everyone", "mine");

        first.send(Envelopes.delivery(hello), Envelopes.delivery(delayed), Envelopes.delivery(hello),
                Envelopes.delivery(sameIdOtherSender));
        awaitAck(first, 4);

        assertThat(recorder.messageIds()).containsExactly("bob/" + BOB_ORIGIN + "-1", "bob/" + BOB_ORIGIN + "-2",
                "carol/" + BOB_ORIGIN + "-1");
        assertThat(recorder.messages.get(0)).isEqualTo(
                new ChatMessage(BOB_ORIGIN + "-1", "bob", "everyone", "hello", SENT_AT, null));
        assertThat(recorder.messages.get(1).delay())
                .isEqualTo(new ChatMessage.Delay(Duration.ofSeconds(5), SENT_AT, true));
        assertThat(client.duplicatesDropped()).isEqualTo(1);

        first.cut();
        Connection second = server.acceptLogin();
        Chat later = chat("bob", BOB_ORIGIN + "-3", "alice", "are you there?");
        second.send(Envelopes.delivery(delayed), Envelopes.delivery(later));
        awaitAck(second, 2);

        assertThat(recorder.messageIds()).as("a redelivery of what was shown is dropped").containsExactly(
                "bob/" + BOB_ORIGIN + "-1", "bob/" + BOB_ORIGIN + "-2", "carol/" + BOB_ORIGIN + "-1",
                "bob/" + BOB_ORIGIN + "-3");
        assertThat(client.duplicatesDropped()).isEqualTo(2);
    }

    @Test
    void deliveries_listenerThrows_messageStillCountsAsSeenAndAcknowledged() {
        FakeServer server = server("node-a");
        List<String> tried = new CopyOnWriteArrayList<>();
        CimClient client = connected(server, builder(server).listener(new CimListener() {
            @Override
            public void onMessage(ChatMessage message) {
                tried.add(message.id());
                throw new IllegalStateException("a listener bug");
            }
        }));
        Connection first = server.connectionsSoFar().get(0);
        Chat hello = chat("bob", BOB_ORIGIN + "-1", "alice", "hello");

        first.send(Envelopes.delivery(hello));
        awaitAck(first, 1);
        first.cut();
        Connection second = server.acceptLogin();
        second.send(Envelopes.delivery(hello), Envelopes.delivery(chat("bob", BOB_ORIGIN + "-2", "alice", "still there?")));
        awaitAck(second, 2);

        assertThat(tried).containsExactly(BOB_ORIGIN + "-1", BOB_ORIGIN + "-2");
        assertThat(client.duplicatesDropped()).isEqualTo(1);
        assertThat(client.isConnected()).isTrue();
    }

    @Test
    void heartbeat_pingsWhenIdle_andLeavesAServerThatStaysSilent() {
        FakeServer server = server("node-a");
        CimClient client = build(builder(server));
        Connection first = loggedIn(server, client, 100);

        await().atMost(WAIT).until(() -> first.all().stream().anyMatch(e -> e.getKindCase() == KindCase.PING));
        // The pings go unanswered: after two intervals of silence the client hangs up and comes back.
        server.acceptLogin();

        assertThat(first.all()).filteredOn(e -> e.getKindCase() == KindCase.PING).first()
                .satisfies(ping -> assertThat(ping.getPing().getClientTimeMillis()).isPositive());
        assertThat(recorder.events(ConnectionEvent.Disconnected.class)).first()
                .satisfies(lost -> assertThat(lost.reason()).contains("silent"));
        await().atMost(WAIT).until(() -> !first.isOpen());
        assertThat(client.connect()).isCompleted();
    }

    @Test
    void deliveries_toTwoClientsBuiltFromOneBuilder_areShownByEach() {
        FakeServer server = server("node-a");
        CimClientBuilder builder = builder(server);
        CimClient one = build(builder);
        one.connect();
        Connection toOne = server.acceptLogin();
        Recorder otherRecorder = new Recorder();
        CimClient two = build(builder.listener(otherRecorder));
        two.connect();
        Connection toTwo = server.acceptLogin();
        Chat hello = chat("bob", BOB_ORIGIN + "-1", "everyone", "hello, both of you");

        toOne.send(Envelopes.delivery(hello));
        awaitAck(toOne, 1);
        toTwo.send(Envelopes.delivery(hello));
        awaitAck(toTwo, 1);

        assertThat(recorder.messages).hasSize(1);
        assertThat(otherRecorder.messages).as("the second client has its own seen ids").hasSize(1);
    }

    @Test
    void onlineUsers_multiFrameReply_isAssembledIntoOneList() {
        FakeServer server = server("node-a");
        CimClient client = connected(server);
        Connection connection = server.connectionsSoFar().get(0);

        CompletableFuture<List<String>> users = client.onlineUsers();
        long id = connection.next(KindCase.ONLINE_USERS_REQUEST).getRequestId();
        connection.send(Envelopes.onlineUsersReply(id, List.of("alice", "bob"), true, 5));
        connection.send(Envelopes.onlineUsersReply(id, List.of("carol", "dave"), true, 5),
                Envelopes.onlineUsersReply(id, List.of("erin"), false, 5));

        assertThat(value(users))
                .containsExactly("alice", "bob", "carol", "dave", "erin");
    }

    @Test
    void onlineUsers_replyCutHalfway_isAskedAgainAndNotDoubled() {
        FakeServer server = server("node-a");
        CimClient client = connected(server);
        Connection first = server.connectionsSoFar().get(0);

        CompletableFuture<List<String>> users = client.onlineUsers();
        Envelope request = first.next(KindCase.ONLINE_USERS_REQUEST);
        first.send(Envelopes.onlineUsersReply(request.getRequestId(), List.of("alice", "bob"), true, 3));
        first.cut();
        Connection second = server.nextConnection();
        second.login(LoginResult.newBuilder().setNodeId("node-a").setHeartbeatIntervalMillis(FakeServer.HEARTBEAT_MILLIS));
        Envelope again = second.next(KindCase.ONLINE_USERS_REQUEST);
        second.send(Envelopes.onlineUsersReply(again.getRequestId(), List.of("alice", "bob"), true, 3),
                Envelopes.onlineUsersReply(again.getRequestId(), List.of("carol"), false, 3));

        assertThat(again).isEqualTo(request);
        assertThat(value(users))
                .containsExactly("alice", "bob", "carol");
    }

    // Scheduled messages.

    @Test
    void scheduleListEditMoveCancel_areAnsweredByTheServersChanges() {
        Instant now = Instant.parse("2027-03-27T10:00:00Z");
        FakeServer server = server("node-a");
        CimClient client = connected(server, builder(server).clock(Clock.fixed(now, ZoneOffset.UTC)));
        Connection connection = server.connectionsSoFar().get(0);

        CompletableFuture<ScheduledMessage> scheduling = client.schedule(Recipient.user("bob"), "lunch?", Duration.ofHours(2));
        Envelope schedule = connection.next(KindCase.SCHEDULE);
        assertThat(schedule.getSchedule().getRecipient()).isEqualTo("bob");
        assertThat(schedule.getSchedule().getText()).isEqualTo("lunch?");
        assertThat(schedule.getSchedule().getDueAtMillis()).isEqualTo(now.plus(Duration.ofHours(2)).toEpochMilli());
        assertThat(schedule.getSchedule().getRequestedMillis()).isEqualTo(Duration.ofHours(2).toMillis());
        String id = MessageIds.of(client.origin(), schedule.getRequestId());
        Scheduled held = scheduled(id, 7, "lunch?", now.plus(Duration.ofHours(2))).toBuilder()
                .setRequestedMillis(Duration.ofHours(2).toMillis()).build();
        connection.send(Envelopes.scheduledChange(schedule.getRequestId(),
                Kind.SCHEDULED, held));
        ScheduledMessage expected = new ScheduledMessage(id, 7, Recipient.user("bob"), "lunch?",
                now.plus(Duration.ofHours(2)), Duration.ofHours(2));
        assertThat(scheduling).succeedsWithin(WAIT).isEqualTo(expected);

        CompletableFuture<List<ScheduledMessage>> listing = client.scheduled();
        Envelope list = connection.next(KindCase.LIST_SCHEDULED);
        assertThat(list.getListScheduled().getDueBeforeMillis()).as("all of them").isZero();
        Scheduled other = scheduled(BOB_ORIGIN + "-9", 8, "later", now.plus(Duration.ofDays(2)));
        connection.send(Envelopes.scheduledList(list.getRequestId(), List.of(held), true, 2),
                Envelopes.scheduledList(list.getRequestId(), List.of(other), false, 2));
        assertThat(value(listing))
                .extracting(ScheduledMessage::number).containsExactly(7L, 8L);

        CompletableFuture<ScheduledMessage> editing = client.edit(id, "dinner?");
        Envelope edit = connection.next(KindCase.EDIT);
        assertThat(edit.getEdit().getId()).isEqualTo(id);
        assertThat(edit.getEdit().getText()).isEqualTo("dinner?");
        assertThat(edit.getEdit().getDueAtMillis()).as("the due time stays").isZero();
        connection.send(Envelopes.scheduledChange(edit.getRequestId(),
                Kind.EDITED, held.toBuilder().setText("dinner?").build()));
        assertThat(editing).succeedsWithin(WAIT).extracting(ScheduledMessage::text).isEqualTo("dinner?");

        Instant later = now.plus(Duration.ofHours(5));
        CompletableFuture<ScheduledMessage> moving = client.move(id, later);
        Envelope move = connection.next(KindCase.EDIT);
        assertThat(move.getEdit().getText()).as("the text stays").isEmpty();
        assertThat(move.getEdit().getDueAtMillis()).isEqualTo(later.toEpochMilli());
        assertThat(move.getEdit().getRequestedMillis()).isEqualTo(Duration.ofHours(5).toMillis());
        connection.send(Envelopes.scheduledChange(move.getRequestId(),
                Kind.EDITED,
                held.toBuilder().setDueAtMillis(later.toEpochMilli()).build()));
        assertThat(moving).succeedsWithin(WAIT).extracting(ScheduledMessage::dueAt).isEqualTo(later);

        CompletableFuture<ScheduledMessage> cancelling = client.cancel(id);
        Envelope cancel = connection.next(KindCase.CANCEL);
        assertThat(cancel.getCancel().getId()).isEqualTo(id);
        connection.send(Envelopes.scheduledChange(cancel.getRequestId(),
                Kind.CANCELLED, held));
        assertThat(cancelling).succeedsWithin(WAIT).extracting(ScheduledMessage::id).isEqualTo(id);

        CompletableFuture<ScheduledMessage> again = client.cancel(id);
        connection.send(Envelopes.error(connection.next(KindCase.CANCEL).getRequestId(), ErrorReply.Code.NOT_FOUND,
                "no scheduled message " + id, false));
        assertThat(failure(again).reason()).isEqualTo(CimException.Reason.NOT_FOUND);

        assertThat(recorder.changes).as("answers to this client's own requests are not news").isEmpty();
        assertThat(client.heldJobs()).as("due after the near window").isZero();
    }

    @Test
    void scheduledChange_pushedByTheServer_reachesTheListener() {
        FakeServer server = server("node-a");
        connected(server);
        Connection connection = server.connectionsSoFar().get(0);
        Instant due = Instant.now().plus(Duration.ofDays(1));

        connection.send(Envelopes.scheduledChange(0, Kind.CANCELLED,
                scheduled(BOB_ORIGIN + "-4", 4, "never mind", due)));

        await().atMost(WAIT).until(() -> !recorder.changes.isEmpty());
        ScheduledChange change = recorder.changes.get(0);
        assertThat(change.kind()).isEqualTo(ScheduledChange.Kind.CANCELLED);
        assertThat(change.message().id()).isEqualTo(BOB_ORIGIN + "-4");
        assertThat(change.message().number()).isEqualTo(4);
        assertThat(change.message().text()).isEqualTo("never mind");
        assertThat(change.message().dueAt()).isEqualTo(Instant.ofEpochMilli(due.toEpochMilli()));
    }

    @Test
    void nearTermScheduledMessage_getsAJobThatSendsReleaseWhenDue() {
        FakeServer server = server("node-a");
        CimClient client = build(builder(server));
        client.connect();
        Connection connection = server.nextConnection();
        connection.login(LoginResult.newBuilder().setNodeId("node-a").setHeartbeatIntervalMillis(FakeServer.HEARTBEAT_MILLIS));
        Instant due = Instant.now().plusMillis(300);
        Scheduled soon = scheduled(MessageIds.of(client.origin(), 77), 3, "now!", due);

        connection.answerRefresh(List.of(soon));
        FakeServer.Received release = connection.nextReceived();

        assertThat(release.envelope().getKindCase()).isEqualTo(KindCase.RELEASE);
        assertThat(release.envelope().getRelease().getId()).isEqualTo(soon.getId());
        assertThat(release.at()).as("not before it is due").isAfterOrEqualTo(due.minusMillis(5));
        connection.send(Envelopes.scheduledChange(release.envelope().getRequestId(),
                Kind.SENT, soon));
        await().atMost(WAIT).until(() -> !recorder.changes.isEmpty());
        assertThat(recorder.changes.get(0).kind()).as("the client's own release is news for the user")
                .isEqualTo(ScheduledChange.Kind.SENT);
        assertThat(client.heldJobs()).isZero();
    }

    @Test
    void schedule_dueWithinTheNearWindow_releasesItWhenDue_andACancelDropsTheJob() {
        FakeServer server = server("node-a");
        CimClient client = connected(server);
        Connection connection = server.connectionsSoFar().get(0);
        Scheduled fromOtherTerminal = scheduled(BOB_ORIGIN + "-5", 2, "from my other terminal", Instant.now().plusSeconds(30));

        connection.send(Envelopes.scheduledChange(0, Kind.SCHEDULED,
                fromOtherTerminal));
        await().atMost(WAIT).until(() -> client.heldJobs() == 1);
        connection.send(Envelopes.scheduledChange(0, Kind.CANCELLED,
                fromOtherTerminal));
        await().atMost(WAIT).until(() -> client.heldJobs() == 0);

        CompletableFuture<ScheduledMessage> soon = client.schedule(Recipient.user("bob"), "soon", Duration.ofMillis(300));
        Envelope schedule = connection.next(KindCase.SCHEDULE);
        Instant due = Instant.ofEpochMilli(schedule.getSchedule().getDueAtMillis());
        String soonId = MessageIds.of(client.origin(), schedule.getRequestId());
        connection.send(Envelopes.scheduledChange(schedule.getRequestId(),
                Kind.SCHEDULED, scheduled(soonId, 1, "soon", due)));
        assertThat(soon).succeedsWithin(WAIT);
        FakeServer.Received release = connection.nextReceived();

        assertThat(release.envelope().getKindCase()).isEqualTo(KindCase.RELEASE);
        assertThat(release.envelope().getRelease().getId()).isEqualTo(soonId);
        assertThat(release.at()).as("not before it is due").isAfterOrEqualTo(due.minusMillis(5));
        assertThat(client.heldJobs()).isZero();
    }

    // Closing.

    @Test
    void close_failsWhatIsUnanswered_asUnconfirmedOnceWritten_andLaterCallsWithClosed() {
        FakeServer server = server("node-a");
        CimClient client = connected(server);
        CompletableFuture<SendReceipt> unanswered = client.send(Recipient.user("bob"), "bye");
        server.connectionsSoFar().get(0).next(KindCase.SEND);

        client.close();

        CimException unconfirmed = failure(unanswered);
        assertThat(unconfirmed.reason()).as("the server read it and may have delivered it")
                .isEqualTo(CimException.Reason.UNCONFIRMED);
        assertThat(unconfirmed.getMessage()).isEqualTo("the client was closed before the server answered: it may have been done");
        assertThat(failure(client.send(Recipient.user("bob"), "after")).reason()).isEqualTo(CimException.Reason.CLOSED);
        assertThat(failure(client.scheduled()).reason()).isEqualTo(CimException.Reason.CLOSED);
        assertThatCode(client::connect).as("the first login's future, completed long ago").doesNotThrowAnyException();
        assertThat(client.allAnswered()).succeedsWithin(WAIT);
        assertThat(recorder.events).last().isEqualTo(new ConnectionEvent.Closed());
        assertThat(client.isConnected()).isFalse();
    }

    @Test
    void close_whileDisconnected_failsWhatWasNeverWrittenAsClosed_andWhatWasAsUnconfirmed() {
        FakeServer server = server("node-a");
        CimClient client = connected(server);
        CompletableFuture<SendReceipt> written = client.send(Recipient.user("bob"), "read by the server");
        Connection first = server.connectionsSoFar().get(0);
        first.next(KindCase.SEND);
        server.stopListening();
        first.cut();
        recorder.awaitEvent(ConnectionEvent.Disconnected.class);
        CompletableFuture<SendReceipt> held = client.send(Recipient.user("bob"), "typed while away");

        client.close();

        assertThat(failure(written).reason()).isEqualTo(CimException.Reason.UNCONFIRMED);
        CimException notSent = failure(held);
        assertThat(notSent.reason()).as("no server ever had it").isEqualTo(CimException.Reason.CLOSED);
        assertThat(notSent.getMessage()).isEqualTo("the client was closed before it was sent");
    }

    // Helpers.

    private FakeServer server(String nodeId) {
        FakeServer server = FakeServer.start(nodeId);
        resources.add(server);
        return server;
    }

    private CimClientBuilder builder(FakeServer server) {
        return CimClient.builder()
                .addresses(List.of(server.address()))
                .user("alice")
                .password("secret")
                .listener(recorder)
                .reconnectBackoff(Duration.ofMillis(20), Duration.ofMillis(200));
    }

    private CimClient build(CimClientBuilder builder) {
        CimClient client = builder.build();
        resources.add(client);
        return client;
    }

    /** A client logged in on {@code server}'s first connection, its first job refresh answered. */
    private CimClient connected(FakeServer server) {
        return connected(server, builder(server));
    }

    private CimClient connected(FakeServer server, CimClientBuilder builder) {
        CimClient client = build(builder);
        CompletableFuture<LoginInfo> connect = client.connect();
        server.acceptLogin();
        assertThat(connect).succeedsWithin(WAIT);
        return client;
    }

    /** Reads Acks until one counts {@code count} Deliveries; none may count more. */
    private static void awaitAck(Connection connection, long count) {
        long last = 0;
        while (last < count) {
            long received = connection.nextOf(KindCase.ACK).getAck().getReceived();
            assertThat(received).as("acknowledged deliveries").isGreaterThan(last).isLessThanOrEqualTo(count);
            last = received;
        }
    }

    private static <T> T value(CompletableFuture<T> future) {
        assertThat(future).succeedsWithin(WAIT);
        return future.join();
    }

    private static CimException failure(CompletableFuture<?> future) {
        Throwable thrown = catchThrowable(() -> future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        assertThat(thrown).isInstanceOf(ExecutionException.class).cause().isInstanceOf(CimException.class);
        return (CimException) thrown.getCause();
    }

    private static Chat chat(String sender, String id, String recipient, String text) {
        return Chat.newBuilder().setId(id).setSender(sender).setRecipient(recipient).setText(text)
                .setSentAtMillis(SENT_AT.toEpochMilli()).build();
    }

    private static Scheduled scheduled(String id, long number, String text, Instant due) {
        return Scheduled.newBuilder().setId(id).setNumber(number).setRecipient("bob").setText(text)
                .setDueAtMillis(due.toEpochMilli()).setRequestedMillis(1000)
                .build();
    }

    /** An address nothing listens on: a free port below the ephemeral range, which no connection takes as its own. */
    private static ServerAddress deadAddress() {
        return new ServerAddress("127.0.0.1", Ports.free());
    }
}
