package dev.cim.e2e;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The server crashes and comes back while a delayed message waits on a client. */
class ServerRestartEndToEndIT {

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
    void aDelayedMessagePendingWhileTheServerRestarts_arrivesAfterTheClientsReconnect() throws Exception {
        JavaProcess alice = cim.client("alice");
        JavaProcess bob = cim.client("bob");

        alice.type(":delay made it through a restart 4");
        alice.await("will be sent at", Duration.ofSeconds(20));
        cim.killServer();
        alice.await("lost the connection to the server", Duration.ofSeconds(20));
        bob.await("lost the connection to the server", Duration.ofSeconds(20));
        cim.startServer();

        alice.await("logged in as alice", CimSystem.START);
        bob.await("alice (delayed 4s): made it through a restart", CimSystem.START);
    }
}
