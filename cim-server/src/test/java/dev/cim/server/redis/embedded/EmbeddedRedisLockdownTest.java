package dev.cim.server.redis.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.cim.server.support.RawRedis;
import dev.cim.testkit.Ports;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What another process of the machine can do to the embedded Redis: nothing without the password,
 * and no file written or module loaded even with it. Runs on every binary the server may choose: the
 * bundled 6.2, and the redis-server 7 on the PATH, which the server prefers. A machine without one
 * fails the cases that need it rather than skip them: {@code .ci/run} installs Debian's.
 */
class EmbeddedRedisLockdownTest {

    private static final long MAXMEMORY = 64L << 20;
    /** The executable a case names for the redis-server 7 on the PATH ({@link #redis7()}). */
    private static final String ON_THE_PATH = "redis-server 7 on the PATH";

    @TempDir
    Path dataDir;

    /** The binaries the server may choose: the bundled one, and the one on the PATH. */
    static List<String> executables() {
        return List.of(RedisExecutable.BUNDLED, ON_THE_PATH);
    }

    /**
     * The redis-server 7 or later on the PATH, which the server prefers to the bundled one.
     *
     * @throws AssertionError where there is none
     */
    private static RedisExecutable redis7() throws IOException {
        RedisExecutable preferred = RedisExecutable.resolve("").executable();
        if (!preferred.version().atLeast7()) {
            fail("no redis-server 7 or later on the PATH (found: " + preferred + "; expected: one, as the server "
                    + "prefers it: apt-get install redis-server, as .ci/run does)");
        }
        return preferred;
    }

    /** The setting that runs {@code executable}: itself, or the path of the redis-server 7 on the PATH. */
    private static String setting(String executable) throws IOException {
        return executable.equals(ON_THE_PATH) ? redis7().path().toString() : executable;
    }

    private EmbeddedRedisServer redis(String executable) throws IOException {
        return new EmbeddedRedisServer(Ports.free(), dataDir,
                new EmbeddedRedisServer.Options("everysec", setting(executable), MAXMEMORY));
    }

    @ParameterizedTest
    @MethodSource("executables")
    void withoutThePassword_keysGetSetAndPublishAreRefused(String executable) throws IOException {
        try (EmbeddedRedisServer redis = redis(executable)) {
            redis.start();
            int port = redis.port();
            assertThat(RawRedis.authenticated(port, redis.password(), "HSET", "cim:{u:alice}:account", "hash", "h1"))
                    .isEqualTo(":1");

            assertThat(RawRedis.command(port, "KEYS", "*")).startsWith("-NOAUTH");
            assertThat(RawRedis.command(port, "HGETALL", "cim:{u:alice}:account")).startsWith("-NOAUTH");
            assertThat(RawRedis.command(port, "HSET", "cim:{u:alice}:account", "hash", "mine")).startsWith("-NOAUTH");
            assertThat(RawRedis.command(port, "PUBLISH", "cim:nodes", "x")).startsWith("-NOAUTH");
            // Refused as unknown (it is) before the password is even asked for.
            assertThat(RawRedis.command(port, "CONFIG", "SET", "dir", "/tmp")).matches("-(NOAUTH|ERR unknown command).*");
            assertThat(RawRedis.command(port, "AUTH", "guess")).startsWith("-WRONGPASS");

            assertThat(RawRedis.authenticated(port, redis.password(), "KEYS", "*")).isEqualTo("*1");
            assertThat(RawRedis.authenticated(port, redis.password(), "HGET", "cim:{u:alice}:account", "hash"))
                    .as("the hash was not overwritten").isEqualTo("$2");
        }
    }

    @ParameterizedTest
    @MethodSource("executables")
    void withThePassword_configDebugAndModuleDoNotExist(String executable) throws IOException {
        try (EmbeddedRedisServer redis = redis(executable)) {
            redis.start();
            int port = redis.port();
            String password = redis.password();

            assertThat(RawRedis.authenticated(port, password, "CONFIG", "SET", "dir", "/tmp"))
                    .startsWith("-ERR unknown command");
            assertThat(RawRedis.authenticated(port, password, "CONFIG", "GET", "requirepass"))
                    .startsWith("-ERR unknown command");
            assertThat(RawRedis.authenticated(port, password, "DEBUG", "SLEEP", "0")).startsWith("-ERR unknown command");
            assertThat(RawRedis.authenticated(port, password, "MODULE", "LIST")).startsWith("-ERR unknown command");
            assertThat(RawRedis.authenticated(port, password, "PING")).isEqualTo("+PONG");
        }
    }

    @ParameterizedTest
    @MethodSource("executables")
    void memory_isLimited_andNeverEvicted(String executable) throws IOException {
        try (EmbeddedRedisServer redis = redis(executable)) {
            redis.start();

            String info = RawRedis.authenticatedBulk(redis.port(), redis.password(), "INFO", "memory");
            assertThat(info).contains("maxmemory:" + MAXMEMORY + "\r\n", "maxmemory_policy:noeviction\r\n");
        }
    }

    @ParameterizedTest
    @MethodSource("executables")
    void password_isPrivate_notOnTheCommandLine_andKeptAcrossRestarts(String executable) throws IOException {
        String password;
        int port;
        try (EmbeddedRedisServer redis = redis(executable)) {
            redis.start();
            port = redis.port();
            password = redis.password();
            assertThat(password).matches("[0-9a-f]{64}");
            assertThat(RawRedis.authenticated(port, password, "SET", "cim:kept", "v")).isEqualTo("+OK");

            Path file = dataDir.resolve(EmbeddedRedisServer.PASSWORD_FILE);
            assertThat(Files.readString(file).strip()).isEqualTo(password);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    dataDir.resolve(EmbeddedRedisServer.CONFIG_FILE)))).isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir))).isEqualTo("rwx------");
            // What every user of the machine can read about the process.
            String commandLine = Files.readString(Path.of("/proc", Long.toString(redis.pid()), "cmdline"));
            assertThat(commandLine).contains("redis").doesNotContain(password);
        }

        try (EmbeddedRedisServer again = new EmbeddedRedisServer(port, dataDir,
                new EmbeddedRedisServer.Options("everysec", setting(executable), MAXMEMORY))) {
            again.start();
            assertThat(again.password()).isEqualTo(password);
            assertThat(RawRedis.authenticated(port, password, "GET", "cim:kept")).isEqualTo("$1");
        }
    }

    @Test
    void dataOfTheBundled62_isReadByRedis7_whenOneIsInstalledLater() throws IOException {
        RedisExecutable preferred = redis7();
        int port = Ports.free();
        try (EmbeddedRedisServer redis = new EmbeddedRedisServer(port, dataDir,
                new EmbeddedRedisServer.Options("everysec", RedisExecutable.BUNDLED, MAXMEMORY))) {
            redis.start();
            assertThat(RawRedis.authenticated(port, redis.password(), "SET", "cim:kept", "v")).isEqualTo("+OK");
        }

        try (EmbeddedRedisServer newer = new EmbeddedRedisServer(port, dataDir,
                new EmbeddedRedisServer.Options("everysec", "", MAXMEMORY))) {
            newer.start();
            assertThat(newer.executable().version().atLeast7()).isTrue();
            assertThat(RawRedis.authenticated(port, newer.password(), "GET", "cim:kept")).isEqualTo("$1");
        }
    }

    @Test
    void olderBinary_onDataOfRedis7_refusesToStartRatherThanStartEmpty() throws IOException {
        RedisExecutable preferred = redis7();
        int port = Ports.free();
        try (EmbeddedRedisServer redis = new EmbeddedRedisServer(port, dataDir,
                new EmbeddedRedisServer.Options("everysec", preferred.path().toString(), MAXMEMORY))) {
            redis.start();
            assertThat(RawRedis.authenticated(port, redis.password(), "SET", "cim:kept", "v")).isEqualTo("+OK");
        }

        try (EmbeddedRedisServer older = new EmbeddedRedisServer(port, dataDir,
                new EmbeddedRedisServer.Options("everysec", RedisExecutable.BUNDLED, MAXMEMORY))) {
            assertThatThrownBy(older::start).isInstanceOf(EmbeddedRedisStartException.class)
                    .hasMessageContaining("holds the data of Redis 7 or later")
                    .hasMessageContaining("apt-get install redis-server");
        }
    }

    @Test
    void executable_thatIsNoRedis_isRefusedSayingWhatWasExpected() throws IOException {
        Path notRedis = Files.writeString(dataDir.resolve("redis-server"), "not a binary");
        try (EmbeddedRedisServer redis = redis(notRedis.toString())) {
            assertThatThrownBy(redis::start).isInstanceOf(EmbeddedRedisStartException.class)
                    .hasMessageContaining("cim.server.redis.executable: " + notRedis)
                    .hasMessageContaining("expected: a runnable redis-server binary");
        }
    }

    @Test
    void noRedis7OnThePath_fallsBackToTheBundledOne_withAWarningSayingHowToGetANewerOne() throws IOException {
        Path bin = Files.createDirectories(dataDir.resolve("bin"));
        RedisExecutable bundled = RedisExecutable.bundled();
        // A redis-server 6 on the PATH is passed over too: it is the bundled binary under that name.
        Files.createSymbolicLink(bin.resolve("redis-server"), bundled.path());

        RedisExecutable.Choice choice = RedisExecutable.resolve("", bin.toString());

        assertThat(choice.executable().source()).isEqualTo(RedisExecutable.BUNDLED);
        assertThat(choice.executable().version().atLeast7()).isFalse();
        assertThat(choice.warning()).hasValueSatisfying(warning -> assertThat(warning)
                .contains("bundled", "apt-get install redis-server", "--cim.server.redis.executable=PATH",
                        "no redis-server 7 or later on the PATH"));
        assertThat(RedisExecutable.resolve("", "").warning()).hasValueSatisfying(warning -> assertThat(warning)
                .contains("no redis-server on the PATH"));
    }

    @Test
    void version_isReadFromTheVersionOutput() {
        assertThat(RedisExecutable.Version.parse("Redis server v=7.0.15 sha=00000000:0 malloc=jemalloc-5.3.0"))
                .contains(new RedisExecutable.Version(7, 0, 15));
        assertThat(RedisExecutable.Version.parse("something else")).isEmpty();
        assertThat(new RedisExecutable.Version(6, 2, 11)).isLessThan(new RedisExecutable.Version(6, 2, 13));
        assertThat(new RedisExecutable.Version(6, 2, 11).atLeast7()).isFalse();
    }
}
