package dev.cim.loadgen;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cim.loadgen.peer.MosquittoBroker;
import dev.cim.loadgen.peer.MqttClientPool;
import dev.cim.loadgen.peer.PeerServer;
import dev.cim.testkit.Ports;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Part 1's traffic on MQTT users of a real mosquitto, started through bin/peer-mosquitto as the
 * generator starts it.
 */
class MosquittoTrafficTest extends PeerTrafficContract {

    private static final Path MOSQUITTO = Path.of("/usr/sbin/mosquitto");
    /** Tests run in the module's directory; the script is the project's. */
    private static final Path SCRIPTS = Path.of("..", "bin");

    @TempDir
    static Path dir;

    @BeforeAll
    static void startBrokerAndUsers() throws Exception {
        assertTrue(Files.isExecutable(MOSQUITTO),
                "Debian's mosquitto is not installed (expected: apt-get install mosquitto, as .ci/run does)");
        PeerServer broker = MosquittoBroker.start(SCRIPTS, dir, Ports.free());
        open(broker, new MqttClientPool("127.0.0.1", broker.port(), 2, MqttClientPool.maxInflight(20, 10)), 10);
    }

    @Override
    String refusal() {
        return "(expected: an MQTT user, of the same side as ";
    }
}
