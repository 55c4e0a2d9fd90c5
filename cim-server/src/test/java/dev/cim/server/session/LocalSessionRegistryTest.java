package dev.cim.server.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalSessionRegistryTest {

    private final LocalSessionRegistry registry = new LocalSessionRegistry();

    @Test
    void add_countsTheSessionsOfEachUser() {
        Session a1 = new Session(1, "alice", new EmbeddedChannel());
        Session a2 = new Session(2, "alice", new EmbeddedChannel());
        Session b1 = new Session(3, "bob", new EmbeddedChannel());

        assertThat(registry.add(a1)).isEqualTo(1);
        assertThat(registry.add(a2)).isEqualTo(2);
        assertThat(registry.add(b1)).isEqualTo(1);

        assertThat(registry.sessionsOf("alice")).containsExactly(a1, a2);
        assertThat(registry.all()).containsExactlyInAnyOrder(a1, a2, b1);
        assertThat(registry.userSessionCounts()).isEqualTo(Map.of("alice", 2, "bob", 1));
    }

    @Test
    void remove_lastSession_forgetsTheUser() {
        Session a1 = new Session(1, "alice", new EmbeddedChannel());
        registry.add(a1);

        assertThat(registry.remove(a1)).isZero();

        assertThat(registry.sessionsOf("alice")).isEmpty();
        assertThat(registry.userSessionCounts()).isEmpty();
    }

    @Test
    void remove_unknownSession_returnsMinusOne() {
        assertThat(registry.remove(new Session(9, "ghost", new EmbeddedChannel()))).isEqualTo(-1);
    }
}
