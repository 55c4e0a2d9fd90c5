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

    @Test
    void aMessageToBeSentAgain_holdsBackTheLaterOnesToItsRecipient_onArrivalAndOnTheLane_untilItComes() {
        gate.retry("bob", 5);
        gate.retry("bob", 7); // a later one refused too: the first still counts

        assertThat(gate.behindRetry("bob", 6)).as("on the lane already").isTrue();
        assertThat(gate.behindRetry("bob", 5)).isFalse();
        assertThat(gate.behindRetry("carol", 6)).isFalse();
        assertThat(gate.admit("bob", 8)).isFalse();
        assertThat(gate.admit("bob", 5)).as("the one to send again").isTrue();
        assertThat(gate.admit("bob", 6)).isTrue();
        assertThat(gate.behindRetry("bob", 8)).isFalse();
    }
}
