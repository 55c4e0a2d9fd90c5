package dev.cim.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PortsTest {

    @Test
    void free_isBelowTheEphemeralRange_andNeverHandedOutTwice() {
        // 500 draws from the ~12,000 ports below Linux's default range: without the record of what
        // was handed out, two of them would almost surely be the same.
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            int port = Ports.free();
            assertThat(port).isBetween(20_000, Ports.ephemeralStart() - 1);
            assertThat(ports.add(port)).as("port %d handed out twice", port).isTrue();
        }
    }

    @Test
    void free_canBeBoundByTheProcessItIsFor() throws IOException {
        int port = Ports.free();

        try (ServerSocket socket = new ServerSocket(port)) {
            assertThat(socket.getLocalPort()).isEqualTo(port);
        }
    }
}
