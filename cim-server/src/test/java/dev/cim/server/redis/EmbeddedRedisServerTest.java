package dev.cim.server.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cim.server.support.FreePort;
import dev.cim.server.support.RawRedis;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** Runs the real redis-server binary shipped in the embedded-redis jar. */
class EmbeddedRedisServerTest {

    @Test
    void start_runsARedisThatAnswersPing_andCloseStopsIt() throws IOException {
        int port = FreePort.next();
        try (EmbeddedRedisServer redis = new EmbeddedRedisServer(port)) {
            redis.start();

            assertThat(ping(port)).isEqualTo("+PONG");
        }
        assertThatThrownBy(() -> ping(port)).isInstanceOf(IOException.class);
    }

    @Test
    void start_portAlreadyTaken_failsSayingSo() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                EmbeddedRedisServer redis = new EmbeddedRedisServer(taken.getLocalPort())) {

            assertThatThrownBy(redis::start)
                    .isInstanceOfSatisfying(EmbeddedRedisStartException.class,
                            e -> assertThat(e.port()).isEqualTo(taken.getLocalPort()))
                    .hasMessageContaining("already in use");
        }
    }

    @Test
    void constructor_portOutOfRange_isRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new EmbeddedRedisServer(0))
                .withMessageContaining("expected: 1 <= port <= 65535");
    }

    private static String ping(int port) throws IOException {
        return RawRedis.command(port, "PING");
    }
}
