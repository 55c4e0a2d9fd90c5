package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {

    @Test
    void valuesRecordedBySeveralThreads_allCountInThePercentiles() throws InterruptedException {
        LatencyRecorder recorder = new LatencyRecorder(250);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int offset = t * 250;
            threads.add(new Thread(() -> {
                for (int i = 1; i <= 250; i++) {
                    recorder.record(offset + i);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join(10_000);
        }

        assertThat(recorder.percentiles()).isEqualTo(new Percentiles(1000, 500, 990, 999, 1000));
    }

    @Test
    void moreValuesThanExpected_areAllKept() {
        LatencyRecorder recorder = new LatencyRecorder(16);
        for (int i = 1; i <= 1000; i++) {
            recorder.record(i);
        }

        assertThat(recorder.percentiles()).isEqualTo(new Percentiles(1000, 500, 990, 999, 1000));
    }

    @Test
    void nothingRecorded_givesNoPercentiles() {
        assertThat(new LatencyRecorder(16).percentiles()).isEqualTo(Percentiles.EMPTY);
    }
}
