package dev.cim.benchmark;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Watches a sample of objects through weak references and tells how long after a given instant the
 * last of them became unreachable. The harness must hold no strong reference to them.
 *
 * <p>Weak references are cleared only by a collection, so the watch runs full collections back to
 * back ({@code System.gc()}, with 1 ms pauses between to let the timer threads run). The result is
 * the start of the first collection after which all were cleared: an upper bound, too high by at
 * most one collection's duration plus the pause.
 */
final class MemoryRelease {

    private final List<WeakReference<Object>> sample;

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
     * Collects until every watched object is gone.
     *
     * @return nanoseconds from {@code sinceNanos} to the start of the first collection after which
     *         all were gone, or -1 if some were still reachable {@code timeoutNanos} after it
     */
    long awaitReleased(long sinceNanos, long timeoutNanos) {
        while (true) {
            long pollStart = System.nanoTime();
            System.gc();
            if (sample.stream().allMatch(ref -> ref.get() == null)) {
                return pollStart - sinceNanos;
            }
            if (pollStart - sinceNanos > timeoutNanos) {
                return -1;
            }
            LockSupport.parkNanos(1_000_000);
        }
    }
}
