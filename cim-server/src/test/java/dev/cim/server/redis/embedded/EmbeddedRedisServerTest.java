package dev.cim.server.redis.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cim.server.support.RawRedis;
import dev.cim.testkit.Ports;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the real redis-server binary the server would choose (see {@link RedisExecutable}). */
class EmbeddedRedisServerTest {

    @TempDir
    Path dataDir;

    @Test
    void start_runsARedisThatAnswersPing_andCloseStopsIt() throws IOException {
        int port = Ports.free();
        try (EmbeddedRedisServer redis = new EmbeddedRedisServer(port, dataDir, "everysec")) {
            redis.start();

            assertThat(RawRedis.authenticated(port, redis.password(), "PING")).isEqualTo("+PONG");
        }
        assertThatThrownBy(() -> ping(port)).isInstanceOf(IOException.class);
    }

    @Test
    void aStreamOfOneEntry_takesUnderTwoKilobytes_notTheFourOfRedisDefault() throws IOException {
        int port = Ports.free();
        try (EmbeddedRedisServer redis = new EmbeddedRedisServer(port, dataDir, "everysec")) {
            redis.start();
            RawRedis.authenticatedBulk(port, redis.password(), "XADD", "cim:test:log", "*", "c", "x".repeat(110));

            String usage = RawRedis.authenticated(port, redis.password(), "MEMORY", "USAGE", "cim:test:log");
            // 1,664 here; at Redis's default node size (4,096 bytes) about 4,300
            assertThat(Long.parseLong(usage.substring(1))).as("bytes of a stream of one entry").isBetween(100L, 2_047L);
        }
    }

    @Test
    void start_afterAStop_reloadsWhatWasWritten() throws IOException {
        int port = Ports.free();
        try (EmbeddedRedisServer redis = new EmbeddedRedisServer(port, dataDir, "everysec")) {
            redis.start();
            assertThat(RawRedis.authenticated(port, redis.password(), "SET", "cim:test", "kept")).isEqualTo("+OK");
        }
        // Redis 6.2 writes one file; Redis 7 a manifest and its parts in appendonlydir.
        assertThat(Files.exists(dataDir.resolve("cim.aof"))
                || Files.exists(dataDir.resolve("appendonlydir").resolve("cim.aof.manifest")))
                .as("the append-only file in %s", dataDir).isTrue();

        try (EmbeddedRedisServer again = new EmbeddedRedisServer(port, dataDir, "everysec")) {
            again.start();
            assertThat(RawRedis.authenticated(port, again.password(), "GET", "cim:test")).isEqualTo("$4");
        }
    }

    @Test
    void start_afterRedisWasKilled_reloadsEveryWriteWithFsyncAlways() throws IOException {
        int port = Ports.free();
        try (EmbeddedRedisServer redis = new EmbeddedRedisServer(port, dataDir, "always")) {
            redis.start();
            for (int i = 0; i < 100; i++) {
                assertThat(RawRedis.authenticated(port, redis.password(), "RPUSH", "cim:list", "v" + i))
                        .isEqualTo(":" + (i + 1));
            }
            Optional<ProcessHandle> process = ProcessHandle.of(redis.pid());
            assertThat(process).isPresent();
            process.get().destroyForcibly(); // SIGKILL: no chance to write anything more
            process.get().onExit().join();
        }

        try (EmbeddedRedisServer again = new EmbeddedRedisServer(port, dataDir, "always")) {
            again.start();
            assertThat(RawRedis.authenticated(port, again.password(), "LLEN", "cim:list")).isEqualTo(":100");
        }
    }

    @Test
    void start_portAlreadyTaken_failsSayingSo() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                EmbeddedRedisServer redis = new EmbeddedRedisServer(taken.getLocalPort(), dataDir, "everysec")) {

            assertThatThrownBy(redis::start)
                    .isInstanceOfSatisfying(EmbeddedRedisStartException.class,
                            e -> assertThat(e.port()).isEqualTo(taken.getLocalPort()))
                    .hasMessageContaining("already in use");
        }
    }

    @Test
    void start_dataDirectoryThatCannotBeMade_failsSayingSo() throws IOException {
        Path file = Files.createFile(dataDir.resolve("a-file"));
        try (EmbeddedRedisServer redis = new EmbeddedRedisServer(Ports.free(), file.resolve("data"), "everysec")) {
            assertThatThrownBy(redis::start).isInstanceOf(EmbeddedRedisStartException.class)
                    .hasMessageContaining("data directory").hasMessageContaining("cannot be set up");
        }
    }

    @Test
    void constructor_portOutOfRange_isRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new EmbeddedRedisServer(0, dataDir, "everysec"))
                .withMessageContaining("expected: 1 <= port <= 65535");
    }

    private static String ping(int port) throws IOException {
        return RawRedis.command(port, "PING");
    }
}
