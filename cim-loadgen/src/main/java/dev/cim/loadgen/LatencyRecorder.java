package dev.cim.loadgen;

import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Keeps every recorded duration (no histogram buckets, so percentiles are exact). The event loop
 * threads record; the part reads once recording is over.
 *
 * <p>Each recording thread has an array of its own, so recording takes no lock (a lock shared by
 * the loops would be measured too: see {@link DeliveryLedger}) and, the arrays being sized up front,
 * copies nothing. {@link #percentiles()} merges them.
 */
final class LatencyRecorder {

    /** One thread's values; only that thread writes, {@link #count} publishes them. */
    private static final class Values {
        long[] values;
        volatile int count;

        Values(int capacity) {
            values = new long[capacity];
        }
    }

    private final int capacity;
    private final Queue<Values> all = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<Values> mine = ThreadLocal.withInitial(this::register);

    /**
     * @param expected how many values will be recorded (by each thread, at most): room for them is
     *                 made when a thread first records
     */
    LatencyRecorder(int expected) {
        capacity = Math.max(16, expected);
    }

    private Values register() {
        Values values = new Values(capacity);
        all.add(values);
        return values;
    }

    void record(long nanos) {
        Values v = mine.get();
        int n = v.count;
        if (n == v.values.length) {
            v.values = Arrays.copyOf(v.values, n * 2);
        }
        v.values[n] = nanos;
        v.count = n + 1; // a volatile write: the value (and a grown array) are visible to whoever reads count
    }

    /** The percentiles of everything recorded so far, by every thread. */
    Percentiles percentiles() {
        long[] merged = new long[0];
        int size = 0;
        for (Values v : all) {
            int n = v.count; // read first: then values holds at least n values
            long[] values = v.values;
            merged = Arrays.copyOf(merged, size + n);
            System.arraycopy(values, 0, merged, size, n);
            size += n;
        }
        return Percentiles.of(merged, size);
    }
}
