package dev.cim.benchmark;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Watches a sample of objects through weak references and tells when they became unreachable. The
 * harness must hold no strong reference to them.
 *
 * <p>Weak references are cleared only by a collection. The first full collection ({@code System.gc()})
 * starts at a chosen instant (one tick after the last cancel) and tells exactly what share of the
 * sample was unreachable then; none runs before it, so none delays the timer's work. Then
 * collections follow, each after a pause as long as the previous one took, until all are cleared;
 * the start of the last is an upper bound of the release time, too high by up to two collections.
 * A full collection of a heap with several GB
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
     * Waits until {@code probeAt} without collecting, collects then and records what share of the
     * sample was gone (exactly what was unreachable at that instant), then keeps collecting until all
     * are gone. Between collections it waits as long as the last one took, so the timer threads keep
     * at least half the time to do the unlinking that is being watched: back-to-back full collections
     * would starve them and measure the watch itself.
     *
     * @return nanoseconds from {@code sinceNanos} to the start of the first collection after which
     *         all were gone, or -1 if some were still reachable {@code timeoutNanos} after it
     */
    long awaitReleased(long sinceNanos, long probeAt, long timeoutNanos) {
        CpuClock.sleepNanos(probeAt - System.nanoTime());
        boolean probe = true;
        while (true) {
            long pollStart = System.nanoTime();
            long gcNanos = collect();
            long gone = sample.stream().filter(ref -> ref.get() == null).count();
            if (probe) {
                probe = false;
                probeLateNanos = pollStart - probeAt;
                goneAtProbe = (double) gone / sample.size();
            }
            if (gone == sample.size()) {
                return pollStart - sinceNanos;
            }
            if (pollStart - sinceNanos > timeoutNanos) {
                return -1;
            }
            CpuClock.sleepNanos(Math.max(gcNanos, 5_000_000));
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

    /** Runs a full collection; returns how long it took. */
    private long collect() {
        long start = System.nanoTime();
        System.gc();
        long took = System.nanoTime() - start;
        longestGcNanos = Math.max(longestGcNanos, took);
        return took;
    }
}
