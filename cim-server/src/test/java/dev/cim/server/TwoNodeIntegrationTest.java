package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.protocol.ChatMessage;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ServerNotice;
import dev.cim.server.net.CimServer;
import dev.cim.server.redis.EmbeddedRedisServer;
import dev.cim.server.routing.RedisRemoteNodes;
import dev.cim.server.support.Await;
import dev.cim.server.support.FreePort;
import dev.cim.server.support.TestClient;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** Two server nodes sharing one Redis: users on different nodes chat as if on one. */
class TwoNodeIntegrationTest {

    private static final String PASSWORD = "pw";

    private static EmbeddedRedisServer redis;
    private static ConfigurableApplicationContext nodeA;
    private static ConfigurableApplicationContext nodeB;
    private static EventLoopGroup clientLoop;

    private final List<TestClient> clients = new ArrayList<>();

    @BeforeAll
    static void startTwoNodes() {
        int redisPort = FreePort.next();
        redis = new EmbeddedRedisServer(redisPort);
        redis.start();
        nodeA = startNode("node-a", redisPort);
        nodeB = startNode("node-b", redisPort);
        clientLoop = new NioEventLoopGroup(1);
        Await.until("each node sees the other", TestClient.WAIT,
                () -> nodeA.getBean(RedisRemoteNodes.class).peers() == 1
                        && nodeB.getBean(RedisRemoteNodes.class).peers() == 1);
    }

    private static ConfigurableApplicationContext startNode(String nodeId, int redisPort) {
        return new SpringApplicationBuilder(CimServerApplication.class).run(
                "--cim.server.port=0",
                "--cim.server.host=127.0.0.1",
                "--cim.server.node-id=" + nodeId,
                "--cim.server.presence.ttl=5s",
                "--cim.server.presence.refresh-interval=200ms",
                "--cim.server.accounts.bcrypt-strength=4",
                "--cim.redis.embedded=false",
                "--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=" + redisPort);
    }

    @AfterAll
    static void stopAll() {
        if (nodeA != null) {
            nodeA.close();
        }
        if (nodeB != null) {
            nodeB.close();
        }
        if (redis != null) {
            redis.close();
        }
        if (clientLoop != null) {
            clientLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @AfterEach
    void closeClients() {
        clients.forEach(TestClient::close);
    }

    private TestClient on(ConfigurableApplicationContext node, String user) {
        TestClient client = TestClient.connect(clientLoop, node.getBean(CimServer.class).port(), Duration.ofSeconds(1))
                .loggedInAs(user, PASSWORD);
        clients.add(client);
        return client;
    }

    @Test
    void privateMessage_toAUserOnTheOtherNode_isRelayedThere() {
        TestClient alice = on(nodeA, "alice1");
        TestClient bob = on(nodeB, "bob1");

        Envelope receipt = alice.chat("bob1", "across the wire");

        assertThat(receipt.getServerNotice().getKind()).isEqualTo(ServerNotice.Kind.DELIVERED);
        assertThat(receipt.getServerNotice().getText()).contains("relayed to 1 other node");
        ChatMessage got = bob.nextChat();
        assertThat(got.text()).isEqualTo("across the wire");
        assertThat(got.sender()).isEqualTo("alice1");
        assertThat(got.id()).startsWith("node-a-");
    }

    @Test
    void broadcast_reachesUsersOnBothNodes_once() {
        TestClient alice = on(nodeA, "alice2");
        TestClient carol = on(nodeA, "carol2");
        TestClient bob = on(nodeB, "bob2");

        alice.chat(ChatMessage.EVERYONE, "hello both nodes");

        assertThat(carol.nextChat().text()).isEqualTo("hello both nodes");
        assertThat(bob.nextChat().text()).isEqualTo("hello both nodes");
        assertThat(alice.drainUntilPong()).isEmpty();
        assertThat(carol.drainUntilPong()).isEmpty();
        assertThat(bob.drainUntilPong()).isEmpty();
    }

    @Test
    void onlineUsers_listsUsersOfBothNodes() {
        on(nodeA, "alice3");
        TestClient bob = on(nodeB, "bob3");

        bob.send(Envelopes.onlineUsersRequest(9));

        assertThat(bob.next().getOnlineUsersReply().getUserNamesList()).contains("alice3", "bob3");
    }
}
