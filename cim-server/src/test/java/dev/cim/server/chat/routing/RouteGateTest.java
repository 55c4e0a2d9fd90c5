package dev.cim.server.chat.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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

    @Test
    void aGateThatNeverQueuedNorRefused_letsEverythingThrough_andALeaveWithoutAnEnterChangesNothing() {
        gate.leave("bob");

        assertThat(gate.mustQueue("bob")).isFalse();
        assertThat(gate.admit("bob", 1)).isTrue();
        assertThat(gate.behindRetry("bob", 1)).isFalse();
    }

    @Test
    void manyThreadsEnteringAtOnce_shareOneCount() throws Exception {
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    gate.enter("bob");
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        for (int t = 0; t < threads - 1; t++) {
            gate.leave("bob");
            assertThat(gate.mustQueue("bob")).as("%d of %d left", t + 1, threads).isTrue();
        }
        gate.leave("bob");
        assertThat(gate.mustQueue("bob")).isFalse();
    }
}
