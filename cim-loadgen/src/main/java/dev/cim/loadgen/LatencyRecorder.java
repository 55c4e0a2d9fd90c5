package dev.cim.loadgen;

import java.util.Arrays;

/**
 * Keeps every recorded duration (no histogram buckets, so percentiles are exact) in a growing
 * array. Thread-safe: the event loop threads record, the part reads once recording is over.
 */
final class LatencyRecorder {

    private long[] values;
    private int count;

    /**
     * @param expected how many values will be recorded: room for them is made now, so that no
     *                 recording thread (an event loop) stops to copy a large array
     */
    LatencyRecorder(int expected) {
        values = new long[Math.max(16, expected)];
    }

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
