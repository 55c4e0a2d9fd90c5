package dev.cim.loadgen;

import java.util.Arrays;

/**
 * Keeps every recorded duration (no histogram buckets, so percentiles are exact) in a growing
 * array. Thread-safe: the event loop threads record, the part reads once recording is over.
 */
final class LatencyRecorder {

    private long[] values = new long[1024];
    private int count;

    synchronized void record(long nanos) {
        if (count == values.length) {
            values = Arrays.copyOf(values, values.length * 2);
        }
        values[count++] = nanos;
    }

    synchronized Percentiles percentiles() {
        return Percentiles.of(Arrays.copyOf(values, count), count);
    }
}
