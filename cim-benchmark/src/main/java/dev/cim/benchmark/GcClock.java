package dev.cim.benchmark;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * The JVM's accumulated collection time over all collectors, in milliseconds. For G1 this is the
 * young and mixed pauses plus full collections (concurrent marking is not counted). It is not split
 * by thread or by cause, so it is reported beside the CPU figures, not added to them.
 */
final class GcClock {

    private GcClock() {
    }

    static long collectionMillis() {
        long total = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, collector.getCollectionTime());
        }
        return total;
    }
}
