package dev.cim.loadgen;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Records durations into an HdrHistogram {@link Recorder}: any number of threads record without a
 * lock (the event loops would otherwise measure each other), values keep three significant digits
 * (0.1 %), and the part reads the histogram once recording is over.
 */
final class LatencyRecorder {

    private final Recorder recorder = new Recorder(3);
    private Histogram total;

    void record(long nanos) {
        recorder.recordValue(Math.max(0, nanos));
    }

    /** The percentiles of everything recorded so far. */
    synchronized Percentiles percentiles() {
        Histogram interval = recorder.getIntervalHistogram();
        if (total == null) {
            total = interval.copy();
        } else {
            total.add(interval);
        }
        return Percentiles.of(total);
    }
}
