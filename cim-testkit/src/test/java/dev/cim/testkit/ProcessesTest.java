package dev.cim.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Processes#stop} on real processes: {@code /bin/sh} stands in for a server, and a
 * {@code sleep} it starts for the server's Redis. That one is orphaned when the shell goes, so only
 * pid 1 reaps it, in its own time: {@link Processes#running} does not count it once it has exited.
 */
class ProcessesTest {

    private static final Duration GRACE = Duration.ofMillis(300);

    /** Whatever a test started, ended after it even if it failed. */
    private final List<ProcessHandle> started = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        started.forEach(ProcessHandle::destroyForcibly);
    }

    @Test
    void stop_processStoppingItsChildOnSigterm_isNeitherKilledNorLeavesAnything() throws IOException {
        Process server = startServer("sleep 600 & trap 'kill $!; exit 0' TERM; echo started; wait");
        List<ProcessHandle> children = server.descendants().toList();

        Processes.Stopped stopped = Processes.stop(server, children, GRACE, GRACE);

        assertThat(stopped.killed()).isFalse();
        assertThat(stopped.leftovers()).isEmpty();
        assertThat(children).hasSize(1).noneMatch(Processes::running);
    }

    @Test
    void stop_processIgnoringSigterm_isKilled_andSoIsWhatItLeftRunning() throws IOException {
        Process server = startServer("trap '' TERM; sleep 600 & echo started; wait");
        List<ProcessHandle> children = server.descendants().toList();

        Processes.Stopped stopped = Processes.stop(server, children, GRACE, GRACE);

        assertThat(stopped.killed()).isTrue();
        assertThat(server.isAlive()).isFalse();
        assertThat(stopped.leftovers()).containsExactlyElementsOf(children);
        assertThat(children).hasSize(1).noneMatch(Processes::running);
    }

    @Test
    void stop_processAlreadyDead_stillKillsWhatItLeftRunning() throws IOException, InterruptedException {
        Process server = startServer("sleep 600 & echo started; wait");
        // Recorded while it runs: once it is gone, its child is no longer among its descendants.
        List<ProcessHandle> children = server.descendants().toList();
        server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertThat(server.descendants()).isEmpty();

        Processes.Stopped stopped = Processes.stop(server, children, GRACE, GRACE);

        assertThat(stopped.killed()).isFalse();
        assertThat(stopped.leftovers()).containsExactlyElementsOf(children);
        assertThat(children).hasSize(1).noneMatch(Processes::running);
    }

    @Test
    void stop_negativeGrace_isRefusedSayingWhatWasExpected() throws IOException {
        Process server = startServer("echo started; exec sleep 600");

        assertThatThrownBy(() -> Processes.stop(server, List.of(), Duration.ofSeconds(-1), GRACE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected: zero or more");
    }

    /** Runs {@code script} in {@code /bin/sh} and returns once it has printed its first line. */
    private Process startServer(String script) throws IOException {
        Process server = new ProcessBuilder("/bin/sh", "-c", script).redirectErrorStream(true).start();
        started.add(server.toHandle());
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).as("the script's first line").isEqualTo("started");
        server.descendants().forEach(started::add);
        return server;
    }
}
