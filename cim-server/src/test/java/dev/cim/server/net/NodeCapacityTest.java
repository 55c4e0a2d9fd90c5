package dev.cim.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class NodeCapacityTest {

    @Test
    void placesAreTakenUpToTheLimit_andGivenBack() {
        NodeCapacity capacity = new NodeCapacity(2, "node-a", List::of);

        assertThat(capacity.take()).isTrue();
        assertThat(capacity.take()).isTrue();
        assertThat(capacity.take()).isFalse();
        capacity.release();
        assertThat(capacity.take()).isTrue();
        assertThat(capacity.taken()).isEqualTo(2);
    }

    @Test
    void whenNoOtherNodeHasRoom_aFullNodeNamesNone_andAsksForALongerSpread() {
        NodeCapacity capacity = new NodeCapacity(1, "node-a", List::of);

        assertThat(capacity.goAway().getGoAway().getNodesList()).isEmpty();
        assertThat(capacity.goAway().getGoAway().getSpreadMillis()).isEqualTo(NodeCapacity.SPREAD_ALL_FULL.toMillis());
    }

    @Test
    void theDefaultLimit_isTheOpenFileCapLessAReserve() {
        assertThat(NodeCapacity.fromOpenFileLimit(20_000)).isEqualTo(19_000);
        assertThat(NodeCapacity.fromOpenFileLimit(1_024)).isEqualTo(768);
        assertThat(NodeCapacity.fromOpenFileLimit(100)).isEqualTo(1);
        assertThat(NodeCapacity.fromOpenFileLimit(Long.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
        assertThat(NodeCapacity.fromOpenFileLimit()).isPositive();
    }

    @Test
    void aLimitBelowOne_isRefused() {
        assertThatThrownBy(() -> new NodeCapacity(0, "node-a", List::of))
                .hasMessage("max connections 0 (expected: >= 1)");
    }
}
