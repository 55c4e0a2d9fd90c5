package dev.cim.server.redis.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cim.server.support.RawRedis;
import dev.cim.testkit.Ports;
import dev.cim.testkit.Processes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded Redis must not outlive the JVM that started it, however that JVM ends: real
 * redis-server and watchdog processes, found as child processes of the JVM that started them.
 */
class EmbeddedRedisWatchdogTest {

    /** Redis gets SIGTERM from its watchdog at once and exits within its next cron tick (100 ms). */
    private static final Duration GONE_WITHIN = Duration.ofSeconds(5);
    private static final Duration CHILD_START = Duration.ofSeconds(30);

    @TempDir
    Path tempDir;

    /** Whatever a test started, ended after it even if it failed, so no test leaves processes behind. */
    private final List<ProcessHandle> started = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        started.forEach(ProcessHandle::destroyForcibly);
    }

    @Test
    void serverKilledWithSigkill_leavesNoRedisRunning() throws Exception {
        int port = Ports.free();
        Process server = startChildJvm(port);
        List<ProcessHandle> children = server.children().toList();
        started.addAll(children);
        ProcessHandle redis = redisAmong(children);
        // It answers (with a refusal: the password is the child's).
        assertThat(RawRedis.command(port, "PING")).startsWith("-NOAUTH");

        server.destroyForcibly(); // SIGKILL: no shutdown hook, no Spring, no close()
        assertThat(server.waitFor(10, TimeUnit.SECONDS)).as("the killed JVM exited").isTrue();

        await("redis-server (pid " + redis.pid() + ") and whatever else the killed JVM started have exited")
                .atMost(GONE_WITHIN).until(() -> children.stream().noneMatch(Processes::running));
        assertThatThrownBy(() -> RawRedis.command(port, "PING")).isInstanceOf(IOException.class);
    }

    @Test
    void close_stopsRedisAndItsWatchdog() throws IOException {
        Set<ProcessHandle> before = ProcessHandle.current().children().collect(Collectors.toSet());
        List<ProcessHandle> children;
        try (EmbeddedRedisServer server = new EmbeddedRedisServer(Ports.free(),
                Files.createTempDirectory("cim-redis"), "everysec")) {
            server.start();
            children = ProcessHandle.current().children().filter(child -> !before.contains(child)).toList();
            started.addAll(children);
            redisAmong(children);
            assertThat(children).as("redis-server and its watchdog").hasSize(2);
        }

        // Both were children of this JVM, which has reaped them: no zombie to tell apart here.
        assertThat(children).as("still running after close()").noneMatch(ProcessHandle::isAlive);
    }

    @Test
    void redisEndingByItself_takesItsWatchdogAlong() throws IOException {
        Set<ProcessHandle> before = ProcessHandle.current().children().collect(Collectors.toSet());
        try (EmbeddedRedisServer server = new EmbeddedRedisServer(Ports.free(),
                Files.createTempDirectory("cim-redis"), "everysec")) {
            server.start();
            List<ProcessHandle> children = ProcessHandle.current().children()
                    .filter(child -> !before.contains(child)).toList();
            started.addAll(children);
            ProcessHandle redis = redisAmong(children);
            ProcessHandle watchdog = children.stream().filter(child -> !child.equals(redis)).findFirst().orElseThrow();

            redis.destroyForcibly();

            // Left running, it would one day signal Redis' pid, by then perhaps another process'.
            await("the watchdog (pid " + watchdog.pid() + ") has exited").atMost(GONE_WITHIN)
                    .until(() -> !Processes.running(watchdog));
        }
    }

    /** Starts {@link EmbeddedRedisChild} on {@code port} and waits until its Redis is ready. */
    private Process startChildJvm(int port) throws IOException {
        Path output = tempDir.resolve("child.log");
        Process child = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        // Starts faster; this JVM only starts a process and waits.
                        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m",
                        "-cp", System.getProperty("java.class.path"),
                        EmbeddedRedisChild.class.getName(), Integer.toString(port)))
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        started.add(child.toHandle());
        try {
            await("the child JVM's Redis is ready").atMost(CHILD_START)
                    .until(() -> read(output).contains(EmbeddedRedisChild.READY) || !child.isAlive());
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "; its output:\n" + read(output), e);
        }
        assertThat(child.isAlive()).as("the child JVM is running; its output:\n%s", read(output)).isTrue();
        return child;
    }

    private static ProcessHandle redisAmong(List<ProcessHandle> processes) {
        List<ProcessHandle> redis = processes.stream()
                // Debian's redis-server is a link to redis-check-rdb, which /proc/PID/exe names.
                .filter(p -> p.info().command().orElse("").contains("redis")).toList();
        assertThat(redis).as("redis-server among %s", processes.stream().map(p -> p.pid() + " "
                + p.info().command().orElse("?")).toList()).hasSize(1);
        return redis.get(0);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
