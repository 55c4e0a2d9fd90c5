package dev.cim.server.chat.routing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RouteGateTest {

    private final RouteGate gate = new RouteGate();

    @Test
    void laterMessages_followTheOnesOnTheLane_untilAllLeft() {
        assertThat(gate.mustQueue("bob")).isFalse();
        gate.enter("bob");
        gate.enter("bob");
        assertThat(gate.mustQueue("bob")).isTrue();
        assertThat(gate.mustQueue("carol")).isFalse();
        gate.leave("bob");
        assertThat(gate.mustQueue("bob")).isTrue();
        gate.leave("bob");
        assertThat(gate.mustQueue("bob")).isFalse();
    }
}
