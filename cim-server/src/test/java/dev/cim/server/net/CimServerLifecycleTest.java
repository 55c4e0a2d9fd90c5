package dev.cim.server.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.server.CimServerApplication;
import dev.cim.server.redis.EmbeddedRedisServer;
import dev.cim.server.redis.RedisKeys;
import dev.cim.server.support.FreePort;
import dev.cim.server.support.RawRedis;
import dev.cim.server.support.TestClient;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Start and stop of the whole server against a Redis the test owns ({@code cim.redis.embedded=false}),
 * so Redis can be inspected after the server is gone.
 */
class CimServerLifecycleTest {

    private final int redisPort = FreePort.next();
    private final EmbeddedRedisServer redis = new EmbeddedRedisServer(redisPort);
    private final EventLoopGroup clientLoop = new NioEventLoopGroup(1);

    @BeforeEach
    void startRedis() {
        redis.start();
    }

    @AfterEach
    void stopRedis() {
        redis.close();
        clientLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private ConfigurableApplicationContext startServer() {
        return new SpringApplicationBuilder(CimServerApplication.class).run(
                "--cim.server.port=0",
                "--cim.server.host=127.0.0.1",
                "--cim.server.node-id=lifecycle-node",
                "--cim.server.accounts.bcrypt-strength=4",
                "--cim.redis.embedded=false",
                "--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=" + redisPort);
    }

    @Test
    void stop_tellsConnectedClients_closesThem_andRemovesTheNodeFromPresence() throws Exception {
        ConfigurableApplicationContext context = startServer();
        int port = context.getBean(CimServer.class).port();
        TestClient alice = TestClient.connect(clientLoop, port, Duration.ofSeconds(1)).loggedInAs("alice", "pw");
        assertThat(RawRedis.command(redisPort, "HEXISTS", RedisKeys.presence("alice"), "lifecycle-node")).isEqualTo(":1");

        context.close();

        Envelope goodbye = alice.next();
        assertThat(goodbye.getError().getCode()).isEqualTo(ErrorReply.Code.SHUTTING_DOWN);
        assertThat(goodbye.getError().getClosing()).isTrue();
        alice.awaitClosed();
        assertThat(RawRedis.command(redisPort, "EXISTS", RedisKeys.presence("alice"))).isEqualTo(":0");
        assertThat(RawRedis.command(redisPort, "EXISTS", RedisKeys.node("lifecycle-node"))).isEqualTo(":0");
        assertThat(RawRedis.command(redisPort, "SISMEMBER", RedisKeys.NODES, "lifecycle-node")).isEqualTo(":0");
        assertThat(RawRedis.command(redisPort, "EXISTS", RedisKeys.account("alice")))
                .as("accounts outlive the server").isEqualTo(":1");
    }

    @Test
    void start_withAnExternalRedis_usesIt_andAServerPortOfZeroBindsAFreePort() {
        try (ConfigurableApplicationContext context = startServer()) {
            CimServer server = context.getBean(CimServer.class);

            assertThat(server.isRunning()).isTrue();
            assertThat(server.port()).isPositive();
            assertThat(server.address()).isEqualTo("127.0.0.1:" + server.port());
            assertThat(context.containsBean("cimEmbeddedRedisServer")).isFalse();
        }
    }
}
