package dev.cim.benchmark;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Watches a sample of objects through weak references and tells when they became unreachable. The
 * harness must hold no strong reference to them.
 *
 * <p>Weak references are cleared only by a collection, so the watch runs full collections back to
 * back ({@code System.gc()}, with 1 ms pauses between to let the timer threads run). The result is
 * the start of the first collection after which all were cleared: an upper bound, too high by at
 * most one collection's duration plus the pause. One of the collections is timed to start at a
 * chosen instant (one tick after the last cancel), which tells exactly what share of the sample was
 * unreachable then, whatever the collections cost. A full collection of a heap with several GB
 * committed (e.g. under {@code -Xms8g}) takes up to seconds, which makes this useless: run with a
 * heap that may shrink, and see {@link #longestGcNanos()} for the resolution actually had.
 */
final class MemoryRelease {

    private final List<WeakReference<Object>> sample;
    private long longestGcNanos;
    private double goneAtProbe;
    private long probeLateNanos;

    private MemoryRelease(List<WeakReference<Object>> sample) {
        this.sample = sample;
    }

    /** Watches about {@code size} of {@code objects}, evenly spaced. */
    static MemoryRelease watch(Object[] objects, int size) {
        int step = Math.max(1, objects.length / size);
        List<WeakReference<Object>> sample = new ArrayList<>();
        for (int i = 0; i < objects.length; i += step) {
            sample.add(new WeakReference<>(objects[i]));
        }
        return new MemoryRelease(sample);
    }

    /**
     * Collects until every watched object is gone, and records what share was gone at
     * {@code probeAt}: the polls are timed so that one collection starts exactly then (the loop waits
     * for that instant rather than start a collection that might still run at it).
     *
     * @return nanoseconds from {@code sinceNanos} to the start of the first collection after which
     *         all were gone, or -1 if some were still reachable {@code timeoutNanos} after it
     */
    long awaitReleased(long sinceNanos, long probeAt, long timeoutNanos) {
        boolean probed = false;
        while (true) {
            long now = System.nanoTime();
            if (!probed && now < probeAt && now + longestGcNanos + 1_000_000 > probeAt) {
                CpuClock.sleepNanos(probeAt - now);
            }
            long pollStart = System.nanoTime();
            collect();
            long gone = sample.stream().filter(ref -> ref.get() == null).count();
            if (!probed && pollStart >= probeAt) {
                probed = true;
                probeLateNanos = pollStart - probeAt;
                goneAtProbe = (double) gone / sample.size();
            }
            if (gone == sample.size()) {
                if (!probed) {
                    goneAtProbe = 1; // all gone before the probe instant
                }
                return pollStart - sinceNanos;
            }
            if (pollStart - sinceNanos > timeoutNanos) {
                return -1;
            }
            LockSupport.parkNanos(1_000_000); // let the timer threads run
        }
    }

    /** The share of the sample gone at the probe of the last {@link #awaitReleased} call. */
    double goneAtProbe() {
        return goneAtProbe;
    }

    /** How late the probe collection started (0 unless a collection ran past the probe instant). */
    long probeLateNanos() {
        return probeLateNanos;
    }

    /** How long the longest collection took: the resolution of {@link #awaitReleased}. */
    long longestGcNanos() {
        return longestGcNanos;
    }

    private void collect() {
        long start = System.nanoTime();
        System.gc();
        longestGcNanos = Math.max(longestGcNanos, System.nanoTime() - start);
    }
}
