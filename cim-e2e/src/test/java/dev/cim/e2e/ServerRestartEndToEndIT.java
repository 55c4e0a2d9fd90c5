package dev.cim.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The server crashes (SIGKILL) and comes back: accounts, inboxes and scheduled messages are still there. */
class ServerRestartEndToEndIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private CimSystem cim;

    @BeforeEach
    void start() throws Exception {
        cim = new CimSystem();
        cim.start();
    }

    @AfterEach
    void stop() throws Exception {
        cim.close();
    }

    @Test
    void aScheduledMessageWhileTheServerIsKilled_arrivesAfterItComesBack() throws Exception {
        JavaProcess alice = cim.client("alice");
        JavaProcess bob = cim.client("bob");

        // To bob, not to everyone: a message to everyone reaches only who is online when it is sent, and
        // bob may log in again a moment after the restarted server sent it.
        alice.type(":delay @bob made it through a crash 4");
        alice.await("will be sent at", WAIT);
        cim.killServer();
        // A killed server's connections end in an end of stream or, when data was in flight, a reset.
        alice.await(ServerRestartEndToEndIT::connectionLost, WAIT, "the connection lost");
        bob.await(ServerRestartEndToEndIT::connectionLost, WAIT, "the connection lost");
        cim.startServer();

        alice.await("logged in as alice", CimSystem.START);
        try {
            bob.await("alice to you (delayed 4s): made it through a crash", CimSystem.START);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nalice's output:\n" + alice.transcript() + "\n"
                    + cim.serverState(), e);
        }
    }

    private static boolean connectionLost(String line) {
        return line.contains("lost the connection") || line.contains("the connection to") && line.contains("failed");
    }

    @Test
    void accountsAndInboxes_surviveAServerCrash() throws Exception {
        JavaProcess bob = cim.client("bob2");
        bob.type(":q");
        assertThat(bob.awaitExit(WAIT)).isZero();
        JavaProcess alice = cim.client("alice2");
        alice.type("@bob2 kept through a crash");
        alice.await("offline", WAIT);

        cim.killServer();
        cim.startServer();

        JavaProcess impostor = cim.startClient("bob2", "--cim.user.password=someone-else");
        impostor.await("error: login refused", CimSystem.START);
        JavaProcess bobAgain = cim.client("bob2");
        bobAgain.await("alice2 to you: kept through a crash", WAIT);
    }
}
