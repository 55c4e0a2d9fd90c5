package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.protocol.ChatMessage;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.ServerNotice;
import dev.cim.server.net.CimServer;
import dev.cim.server.redis.RedisKeys;
import dev.cim.server.support.Await;
import dev.cim.server.support.FreePort;
import dev.cim.server.support.TestClient;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The whole server over real TCP on loopback, with a real (embedded) Redis on a free port: one
 * Spring context for the class, several raw protocol clients per test. Each test uses its own user
 * names, so tests do not see each other's accounts or inboxes.
 */
class CimServerIntegrationTest {

    private static final String PASSWORD = "correct horse";
    private static final Duration IDLE_TIMEOUT = Duration.ofMillis(1500);
    private static final Duration CLIENT_HEARTBEAT = Duration.ofMillis(200);
    private static final Duration PRESENCE_TTL = Duration.ofSeconds(20);
    private static final AtomicInteger testNumber = new AtomicInteger();

    private static ConfigurableApplicationContext context;
    private static EventLoopGroup clientLoop;
    private static int port;
    private static StringRedisTemplate redis;
    private static String nodeId;

    private final List<TestClient> clients = new ArrayList<>();
    private final int test = testNumber.incrementAndGet();

    @BeforeAll
    static void startServer() {
        // Command-line arguments, since they override application.properties (builder
        // "properties" are only defaults and would lose to it).
        context = new SpringApplicationBuilder(CimServerApplication.class).run(
                "--cim.server.port=0",
                "--cim.server.host=127.0.0.1",
                "--cim.server.node-id=it-node",
                "--cim.server.idle-timeout=" + IDLE_TIMEOUT.toMillis() + "ms",
                "--cim.server.max-frame-size=8KB",
                "--cim.server.presence.ttl=" + PRESENCE_TTL.toSeconds() + "s",
                "--cim.server.presence.refresh-interval=5s",
                "--cim.server.accounts.bcrypt-strength=4",
                "--cim.redis.embedded=true",
                "--spring.data.redis.port=" + FreePort.next());
        port = context.getBean(CimServer.class).port();
        redis = context.getBean(StringRedisTemplate.class);
        nodeId = context.getBean(CimServerProperties.class).nodeId();
        clientLoop = new NioEventLoopGroup(1);
    }

    @AfterAll
    static void stopServer() {
        if (context != null) {
            context.close();
        }
        if (clientLoop != null) {
            clientLoop.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @AfterEach
    void closeClients() {
        clients.forEach(TestClient::close);
    }

    /** A user name of this test only. */
    private String user(String name) {
        return name + test;
    }

    private TestClient client() {
        TestClient client = TestClient.connect(clientLoop, port, CLIENT_HEARTBEAT);
        clients.add(client);
        return client;
    }

    private TestClient silentClient() {
        TestClient client = TestClient.connect(clientLoop, port, null);
        clients.add(client);
        return client;
    }

    private TestClient loggedIn(String user) {
        return client().loggedInAs(user, PASSWORD);
    }

    @Test
    void firstLogin_createsTheAccount_storingOnlyAHash() {
        Envelope result = client().login(user("alice"), PASSWORD);

        assertThat(result.getLoginResult().getOk()).isTrue();
        assertThat(result.getLoginResult().getAccountCreated()).isTrue();
        assertThat(result.getLoginResult().getNodeId()).isEqualTo(nodeId);
        assertThat(result.getLoginResult().getHeartbeatIntervalMillis()).isEqualTo(IDLE_TIMEOUT.toMillis() / 3);
        String stored = redis.opsForValue().get(RedisKeys.account(user("alice")));
        assertThat(stored).startsWith("$2a$04$").doesNotContain(PASSWORD);
    }

    @Test
    void secondLogin_withTheSamePassword_isAcceptedWithoutCreating() {
        loggedIn(user("alice")).close();

        Envelope again = client().login(user("alice"), PASSWORD);

        assertThat(again.getLoginResult().getOk()).isTrue();
        assertThat(again.getLoginResult().getAccountCreated()).isFalse();
    }

    @Test
    void login_withAWrongPassword_isRefusedAndTheConnectionClosed() {
        loggedIn(user("alice"));
        TestClient intruder = client();

        Envelope result = intruder.login(user("alice"), "guess");

        assertThat(result.getLoginResult().getOk()).isFalse();
        assertThat(result.getLoginResult().getReason()).contains("wrong password");
        intruder.awaitClosed();
    }

    @Test
    void broadcast_reachesEveryOtherUser_andNotTheSendingSession() {
        TestClient alice = loggedIn(user("alice"));
        TestClient bob = loggedIn(user("bob"));
        TestClient carol = loggedIn(user("carol"));
        long before = System.currentTimeMillis();

        Envelope receipt = alice.chat(ChatMessage.EVERYONE, "hello all");

        assertThat(receipt.getServerNotice().getKind()).isEqualTo(ServerNotice.Kind.DELIVERED);
        for (TestClient other : List.of(bob, carol)) {
            ChatMessage got = other.nextChat();
            assertThat(got.sender()).isEqualTo(user("alice"));
            assertThat(got.text()).isEqualTo("hello all");
            assertThat(got.recipient()).isEqualTo(ChatMessage.EVERYONE);
            assertThat(got.id()).isEqualTo(receipt.getServerNotice().getMessageId()).startsWith(nodeId + "-");
            assertThat(got.sentAt()).isBetween(Instant.ofEpochMilli(before), Instant.now());
        }
        assertThat(alice.drainUntilPong()).isEmpty();
    }

    @Test
    void privateMessage_reachesEveryTerminalOfTheRecipient_andTheSendersOtherTerminals_only() {
        TestClient alice = loggedIn(user("alice"));
        TestClient aliceLaptop = loggedIn(user("alice"));
        TestClient bob = loggedIn(user("bob"));
        TestClient bobPhone = loggedIn(user("bob"));
        TestClient carol = loggedIn(user("carol"));

        Envelope receipt = alice.chat(user("bob"), "psst");

        assertThat(receipt.getServerNotice().getKind()).isEqualTo(ServerNotice.Kind.DELIVERED);
        assertThat(receipt.getServerNotice().getSessions()).isEqualTo(2);
        assertThat(bob.nextChat().text()).isEqualTo("psst");
        assertThat(bobPhone.nextChat().text()).isEqualTo("psst");
        assertThat(aliceLaptop.nextChat().recipient()).isEqualTo(user("bob"));
        assertThat(carol.drainUntilPong()).isEmpty();
        assertThat(alice.drainUntilPong()).isEmpty();
    }

    @Test
    void messagesToAnOfflineUser_waitInTheInbox_andArriveInOrderAtTheNextLogin() {
        loggedIn(user("dave")).close();
        TestClient alice = loggedIn(user("alice"));
        Await.until("dave is offline", TestClient.WAIT, () -> !redis.hasKey(RedisKeys.presence(user("dave"))));

        for (int i = 1; i <= 3; i++) {
            Envelope receipt = alice.chat(user("dave"), "message " + i);
            assertThat(receipt.getServerNotice().getKind()).isEqualTo(ServerNotice.Kind.STORED_OFFLINE);
            assertThat(receipt.getServerNotice().getText()).contains("offline inbox");
        }
        TestClient dave = client();
        assertThat(dave.login(user("dave"), PASSWORD).getLoginResult().getOk()).isTrue();

        assertThat(List.of(dave.nextChat(), dave.nextChat(), dave.nextChat()))
                .extracting(ChatMessage::text)
                .containsExactly("message 1", "message 2", "message 3");
        assertThat(redis.hasKey(RedisKeys.inbox(user("dave")))).isFalse();
        assertThat(dave.drainUntilPong()).isEmpty();
    }

    @Test
    void messageToAnUnknownUser_isRefusedWithAnError_andTheConnectionStaysOpen() {
        TestClient alice = loggedIn(user("alice"));

        Envelope answer = alice.chat(user("nobody"), "hello?");

        assertThat(answer.getError().getCode()).isEqualTo(ErrorReply.Code.UNKNOWN_USER);
        assertThat(answer.getError().getMessage()).contains(user("nobody"));
        assertThat(answer.getError().getClosing()).isFalse();
        assertThat(alice.drainUntilPong()).isEmpty();
    }

    @Test
    void invalidMessage_isRefusedWithBadRequest_andTheConnectionStaysOpen() {
        TestClient alice = loggedIn(user("alice"));

        Envelope answer = alice.chat(user("bob"), "   ");

        assertThat(answer.getError().getCode()).isEqualTo(ErrorReply.Code.BAD_REQUEST);
        assertThat(alice.drainUntilPong()).isEmpty();
    }

    @Test
    void anyFrameBeforeLogin_closesTheConnection() {
        TestClient early = silentClient();

        early.send(Envelopes.onlineUsersRequest(5));

        Envelope error = early.next();
        assertThat(error.getError().getCode()).isEqualTo(ErrorReply.Code.NOT_LOGGED_IN);
        assertThat(error.getError().getClosing()).isTrue();
        early.awaitClosed();
    }

    @Test
    void oversizedFrame_closesThatConnection_whileOthersKeepChatting() {
        TestClient alice = loggedIn(user("alice"));
        TestClient bob = loggedIn(user("bob"));
        TestClient mallory = loggedIn(user("mallory"));

        mallory.sendRaw(Unpooled.buffer().writeInt(100_000).writeZero(1000));

        assertThat(mallory.next().getError().getCode()).isEqualTo(ErrorReply.Code.FRAME_TOO_LONG);
        mallory.awaitClosed();
        alice.chat(user("bob"), "still here?");
        assertThat(bob.nextChat().text()).isEqualTo("still here?");
    }

    @Test
    void garbageBytes_closeThatConnection_whileOthersKeepChatting() {
        TestClient alice = loggedIn(user("alice"));
        TestClient bob = loggedIn(user("bob"));
        TestClient noise = silentClient();

        noise.sendRaw(Unpooled.buffer().writeInt(8).writeLong(-1L));

        assertThat(noise.next().getError().getCode()).isEqualTo(ErrorReply.Code.BAD_FRAME);
        noise.awaitClosed();
        alice.chat(user("bob"), "unbothered");
        assertThat(bob.nextChat().text()).isEqualTo("unbothered");
    }

    @Test
    void frameOfAnotherProtocolVersion_closesTheConnection() {
        TestClient future = silentClient();

        future.send(Envelopes.loginRequest(1, user("zed"), PASSWORD).toBuilder().setVersion(99).build());

        assertThat(future.next().getError().getCode()).isEqualTo(ErrorReply.Code.UNSUPPORTED_VERSION);
        future.awaitClosed();
    }

    @Test
    void connectionThatSendsNothing_isClosedAfterTheIdleTimeout() {
        TestClient mute = silentClient();

        mute.awaitClosed();
    }

    @Test
    void loggedInConnectionThatFallsSilent_isClosed_andItsPresenceRemoved() {
        TestClient sleepy = silentClient().loggedInAs(user("sleepy"), PASSWORD);
        assertThat(redis.opsForHash().hasKey(RedisKeys.presence(user("sleepy")), nodeId)).isTrue();

        Envelope error = sleepy.next();

        assertThat(error.getError().getCode()).isEqualTo(ErrorReply.Code.IDLE_TIMEOUT);
        sleepy.awaitClosed();
        Await.until("presence of sleepy removed", TestClient.WAIT,
                () -> !redis.opsForHash().hasKey(RedisKeys.presence(user("sleepy")), nodeId));
        assertThat(redis.opsForSet().isMember(RedisKeys.nodeUsers(nodeId), user("sleepy"))).isFalse();
    }

    @Test
    void onlineUsersRequest_listsTheUsersOnline_sorted() {
        TestClient bob = loggedIn(user("bob"));
        loggedIn(user("alice"));

        long id = bob.nextRequestId();
        bob.send(Envelopes.onlineUsersRequest(id));
        Envelope reply = bob.next();

        assertThat(reply.getRequestId()).isEqualTo(id);
        List<String> names = reply.getOnlineUsersReply().getUserNamesList();
        assertThat(names).contains(user("alice"), user("bob")).isSorted();
    }

    @Test
    void presenceKeys_sayWhichNodeAUserIsOn_andExpireUnlessRefreshed() {
        loggedIn(user("alice"));
        loggedIn(user("alice"));

        String presence = RedisKeys.presence(user("alice"));
        assertThat(redis.opsForHash().get(presence, nodeId)).isEqualTo("2");
        assertThat(redis.getExpire(presence)).isBetween(1L, PRESENCE_TTL.toSeconds());
        assertThat(redis.getExpire(RedisKeys.node(nodeId))).isBetween(1L, PRESENCE_TTL.toSeconds());
        assertThat(redis.opsForSet().isMember(RedisKeys.nodeUsers(nodeId), user("alice"))).isTrue();
    }

    @Test
    void lastSessionClosing_removesTheUserFromPresence() {
        TestClient alice = loggedIn(user("alice"));
        TestClient aliceLaptop = loggedIn(user("alice"));
        String presence = RedisKeys.presence(user("alice"));

        alice.close();
        Await.until("one session left", TestClient.WAIT, () -> "1".equals(redis.opsForHash().get(presence, nodeId)));
        aliceLaptop.close();

        Await.until("alice offline", TestClient.WAIT, () -> !redis.opsForHash().hasKey(presence, nodeId));
    }

    @Test
    void ping_isAnsweredWithAPongEchoingTheClientTime() {
        TestClient alice = loggedIn(user("alice"));

        alice.send(Envelopes.ping(42, 123_456L));
        Envelope pong = alice.next();

        assertThat(pong.getRequestId()).isEqualTo(42);
        assertThat(pong.getPong().getClientTimeMillis()).isEqualTo(123_456L);
        assertThat(pong.getPong().getServerTimeMillis()).isPositive();
    }
}
