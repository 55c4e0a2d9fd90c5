package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.net.NettyTransport;
import dev.cim.common.wheel.DelayScheduler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A pool of the generator's clients against the server jar, a child process on loopback. */
class ClientPoolTest {

    private static final Path SERVER_JAR = Path.of("../cim-server/target/cim-server.jar");

    @Test
    void loginsTheServerThrottlesPastTheDeadline_failAtOnce_sayingWhy() throws Exception {
        try (ChildServer server = ChildServer.start(SERVER_JAR, "256m", List.of(),
                List.of("--cim.server.accounts.registrations-per-address=3"), false)) {
            NettyTransport transport = NettyTransport.nio();
            Dialer dialer = new Dialer(transport.group(2, new DefaultThreadFactory("pool-test", true)), transport,
                    DelayScheduler.builder().threadNamePrefix("pool-test-wheel").build(),
                    new InetSocketAddress("127.0.0.1", server.port()), null, false, 1_000);
            try (ClientPool pool = dialer.pool()) {
                // One source address: three new accounts, then the server says "not for an hour".
                Opened<LoadClient> opened = pool.open("throttled", 5, Duration.ofMinutes(5));

                assertThat(opened.clients()).hasSize(3);
                assertThat(opened.failed()).isEqualTo(2);
                assertThat(opened.firstFailure())
                        .contains("too many new accounts from your address (at most 3)")
                        .contains("past the generator's deadline");
                assertThat(opened.elapsed()).as("not the five minutes the pool may wait")
                        .isLessThan(Duration.ofMinutes(1));
            } finally {
                dialer.wheel().stopNow();
                dialer.group().shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
            }
        }
    }
}
