package dev.cim.loadgen.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The configuration bin/peer-mosquitto writes, and the arguments it refuses; needs no mosquitto. */
class PeerMosquittoScriptTest {

    /** Tests run in the module's directory; the script is the project's. */
    private static final Path SCRIPT = Path.of("..", "bin", MosquittoBroker.SCRIPT);

    @TempDir
    Path dir;

    private record Ran(int exit, String output) {
    }

    private static Ran run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Ran(process.waitFor(), output);
    }

    @Test
    void config_listensOnLoopback_persists_andHolds20000MessagesPerClient() throws Exception {
        Ran config = run("config", "--dir", dir.toString(), "--port", "23456");

        assertThat(config.exit()).isZero();
        assertThat(config.output().lines()).contains(
                "listener 23456 127.0.0.1",
                "allow_anonymous true",
                "persistence true",
                "persistence_location " + dir.toRealPath() + "/",
                "max_inflight_messages 20000",
                "max_queued_messages 20000",
                "set_tcp_nodelay true",
                "pid_file " + dir.toRealPath() + "/mosquitto.pid",
                "log_dest file " + dir.toRealPath() + "/mosquitto.log");
        assertThat(config.output().lines().filter(line -> !line.startsWith("#")))
                .noneMatch(line -> line.startsWith("autosave_interval") || line.startsWith("listener 1883"));
    }

    @Test
    void aDirGivenRelatively_isWrittenAbsolute_forMosquittoWhichRunsElsewhere() throws Exception {
        Ran config = run("config", "--dir=relative/broker", "--port=23456");

        assertThat(config.output().lines()).contains("persistence_location "
                + Path.of("relative/broker").toAbsolutePath().normalize() + "/");
    }

    @Test
    void portsOutOfRange_unknownOptionsAndCommands_areRefusedSayingWhatIsExpected() throws Exception {
        assertThat(run("config", "--port", "80")).isEqualTo(new Ran(2,
                "bin/peer-mosquitto: --port 80 (expected: 1024 to 65535)\n"));
        assertThat(run("config", "--port", "x1")).isEqualTo(new Ran(2,
                "bin/peer-mosquitto: --port 'x1' (expected: a number from 1024 to 65535)\n"));
        assertThat(run("config", "--bogus")).isEqualTo(new Ran(2,
                "bin/peer-mosquitto: unknown option '--bogus' (expected: --dir DIR, --port PORT)\n"));
        assertThat(run("restart").exit()).isEqualTo(2);
    }

    @Test
    void pidAndStatus_ofADirWhereNoneRuns_failSayingSo() throws Exception {
        assertThat(run("pid", "--dir", dir.toString())).isEqualTo(new Ran(1,
                "bin/peer-mosquitto: no mosquitto runs from " + dir.toRealPath() + "\n"));
        assertThat(run("status", "--dir", dir.toString()).exit()).isEqualTo(1);
        assertThat(run("stop", "--dir", dir.toString())).isEqualTo(new Ran(0,
                "no mosquitto runs from " + dir.toRealPath() + "\n"));
    }
}
