package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {

    @Test
    void valuesRecordedBySeveralThreads_allCountInThePercentiles() throws InterruptedException {
        LatencyRecorder recorder = new LatencyRecorder();
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
    void readingTwice_keepsWhatWasRecordedBefore() {
        LatencyRecorder recorder = new LatencyRecorder();
        for (int i = 1; i <= 500; i++) {
            recorder.record(i);
        }
        recorder.percentiles();
        for (int i = 501; i <= 1000; i++) {
            recorder.record(i);
        }

        assertThat(recorder.percentiles()).isEqualTo(new Percentiles(1000, 500, 990, 999, 1000));
    }

    @Test
    void largeValues_keepThreeSignificantDigits() {
        LatencyRecorder recorder = new LatencyRecorder();
        recorder.record(123_456_789L);

        long p50 = recorder.percentiles().p50();
        assertThat(p50).isBetween(123_400_000L, 123_600_000L);
    }

    @Test
    void nothingRecorded_givesNoPercentiles() {
        assertThat(new LatencyRecorder().percentiles()).isEqualTo(Percentiles.EMPTY);
    }
}
