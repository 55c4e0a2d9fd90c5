package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cim.loadgen.peer.PeerServer;
import dev.cim.loadgen.peer.xmpp.PeerEjabberd;
import dev.cim.loadgen.peer.xmpp.XmppEndpoint;
import dev.cim.loadgen.peer.xmpp.XmppPool;
import dev.cim.testkit.Ports;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Part 1's traffic on XMPP users of a real ejabberd, started through bin/peer-ejabberd as the
 * generator starts it (which runs the node as the system user ejabberd: root only).
 */
class EjabberdTrafficTest extends PeerTrafficContract {

    private static final int USERS = 10;
    /** Tests run in the module's directory; the script is the project's. */
    private static final Path SCRIPTS = Path.of("..", "bin");

    /** Made the user ejabberd's by the script: reachable by it, in /tmp. */
    @TempDir
    static Path dir;
    private static PeerServer ejabberd;

    @BeforeAll
    static void startEjabberdAndUsers() throws Exception {
        assertTrue(PeerEjabberd.installed(), "ejabberd is not installed (expected: apt-get install ejabberd, as .ci/run does)");
        assumeTrue("root".equals(System.getProperty("user.name")),
                "bin/peer-ejabberd runs ejabberd as the user ejabberd, which needs root");
        ejabberd = PeerEjabberd.start(SCRIPTS, dir, Ports.free(), USERS);
        open(ejabberd, new XmppPool(XmppEndpoint.peer(ejabberd.port()), 2), USERS);
    }

    @Test
    void attach_findsTheRunningNode_registersTheUsersItLacks_andLeavesItRunning() throws Exception {
        PeerServer attached = PeerEjabberd.attach(SCRIPTS, dir, ejabberd.port(), USERS + 5);

        assertThat(attached.pid()).isEqualTo(ejabberd.pid());
        assertThat(attached.describe()).contains("users u0 .. u" + (USERS + 4) + ",")
                .endsWith(", running before the generator");
        attached.close();
        assertThat(ejabberd.isAlive()).isTrue();
        assertThatIllegalStateException()
                .isThrownBy(() -> PeerEjabberd.attach(SCRIPTS, dir, ejabberd.port() + 1, USERS))
                .withMessageContaining("(expected: --port " + (ejabberd.port() + 1) + "; stop it first)");
    }

    @Override
    String refusal() {
        return "(expected: an XMPP user, of the same side as ";
    }
}
