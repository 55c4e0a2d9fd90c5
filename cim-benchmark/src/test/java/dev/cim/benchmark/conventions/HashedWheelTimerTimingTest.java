package dev.cim.benchmark.conventions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.wheel.DelayScheduler;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The timing bound of Netty's {@code HashedWheelTimerTest} on our wheel: how late a job may run. It
 * holds on a quiet machine and can fail on a loaded one (two cores shared with a build), so it is
 * tagged {@code timing}, which the unit phase leaves out; run it on a quiet machine with
 * {@code ./mvnw -B -ntp -pl cim-benchmark -am test -Ptiming} (the profile runs the tagged tests alone).
 */
@Tag("timing")
class HashedWheelTimerTimingTest {

    @Test
    void newTimeout_100000Timeouts_eachRunsNotBeforeItsDelayAndWithinTwiceTickPlusDelay() throws Exception {
        // Netty: testExecutionOnTime (200 ms tick, 125 ms timeouts, each within [125, 650) ms).
        int maxTimeout = 2 * (ExecutionOnTime.TICK + ExecutionOnTime.TIMEOUT);
        WheelAsNettyTimer timer = new WheelAsNettyTimer(DelayScheduler.builder()
                .tick(Duration.ofMillis(ExecutionOnTime.TICK)).maxDelay(Duration.ofDays(1)).build());
        try {
            List<Long> delays = ExecutionOnTime.run(timer);

            assertThat(Collections.min(delays)).as("the earliest, in ms after it was scheduled")
                    .isGreaterThanOrEqualTo(ExecutionOnTime.TIMEOUT);
            assertThat(Collections.max(delays)).as("the latest, in ms after it was scheduled").isLessThan(maxTimeout);
        } finally {
            timer.stop();
        }
    }
}
