package dev.cim.server.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TallyTest {

    @Test
    void sumsWhatEveryThreadCounted_andPublishesIt() throws InterruptedException {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Tally tally = Tally.register(registry, "cim.test.counted", "for the test", "kind", "a");
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 100_000; i++) {
                    tally.increment();
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        tally.increment();

        assertThat(tally.sum()).isEqualTo(400_001);
        assertThat(registry.get("cim.test.counted").tag("kind", "a").functionCounter().count()).isEqualTo(400_001);
    }

    @Test
    void countsNothingUntilCounted() {
        assertThat(new Tally().sum()).isZero();
    }
}
