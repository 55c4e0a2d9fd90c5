package dev.cim.server.chat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.server.chat.session.LocalUsers;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ChatMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AtomicLong nanos = new AtomicLong();
    private final ChatMetrics metrics = new ChatMetrics(registry, new LocalUsers(), nanos::get);

    @Test
    void everyOutcomeIsCounted_andASampleIsTimed() {
        int messages = 16_000;
        for (int i = 0; i < messages; i++) {
            ChatMetrics.Timing timing = metrics.timer();
            nanos.addAndGet(3_000_000); // 3 ms from arrival to receipt
            timing.done(i % 4 == 0, i % 8 == 1);
        }
        assertThat(routed("stored")).isEqualTo(4_000);
        assertThat(routed("failed")).isEqualTo(2_000);
        assertThat(routed("delivered")).isEqualTo(10_000);

        long timed = 0;
        for (String outcome : new String[] {"delivered", "stored", "failed"}) {
            var timer = registry.get("cim.routing").tag("outcome", outcome).timer();
            timed += timer.count();
            if (timer.count() > 0) {
                assertThat(timer.max(TimeUnit.MILLISECONDS)).isEqualTo(3.0);
            }
        }
        // one in 16 at random: 1,000 expected, a standard deviation of 31
        assertThat(timed).isBetween(800L, 1_200L);
    }

    private double routed(String outcome) {
        return registry.get("cim.messages.routed").tag("outcome", outcome).functionCounter().count();
    }
}
