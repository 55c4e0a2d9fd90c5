package dev.cim.server.chat.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.server.chat.fakes.MapPresence;
import dev.cim.server.chat.fakes.RecordingBus;
import dev.cim.server.chat.session.LocalUsers;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClusterTest {

    private final Cluster cluster = new Cluster(new LocalUsers(), new MapPresence("b", Map.of(), Map.of()),
            new RecordingBus());

    @Test
    void theAddressesAClientIsTold_areTheLastHeartbeats_thisNodeFirst() {
        assertThat(cluster.addresses()).as("before any heartbeat").isEmpty();
        Map<String, String> live = new LinkedHashMap<>();
        live.put("a", "10.0.0.1:9000");
        live.put("b", "10.0.0.2:9000");
        live.put("c", "10.0.0.3:9000");

        assertThat(cluster.live(live)).isEmpty();

        assertThat(cluster.addresses()).containsExactly("10.0.0.2:9000", "10.0.0.1:9000", "10.0.0.3:9000");
        assertThat(cluster.peers()).isEqualTo(2);

        assertThat(cluster.live(Map.of("b", "10.0.0.2:9000"))).isEqualTo(Set.of("a", "c"));
        assertThat(cluster.addresses()).containsExactly("10.0.0.2:9000");
    }

    @Test
    void theNodesAFullNodeSendsLoginsTo_areTheOthersNotFull() {
        Map<String, String> live = new LinkedHashMap<>();
        live.put("a", "10.0.0.1:9000");
        live.put("b", "10.0.0.2:9000");
        live.put("c", "10.0.0.3:9000");
        cluster.live(live);

        assertThat(cluster.otherAddressesWithRoom()).containsExactlyInAnyOrder("10.0.0.1:9000", "10.0.0.3:9000");

        cluster.full(Set.of("a", "b"));
        assertThat(cluster.otherAddressesWithRoom()).containsExactly("10.0.0.3:9000");

        cluster.full(Set.of("a", "c"));
        assertThat(cluster.otherAddressesWithRoom()).isEmpty();
    }
}
