package dev.cim.benchmark;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/** Heap occupancy after full collections, and the VM settings that decide object sizes. */
final class HeapProbe {

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private HeapProbe() {
    }

    /**
     * Runs {@code System.gc()} several times, pausing between, then returns the heap in use: close to
     * the bytes reachable at that moment.
     */
    static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    /** A HotSpot flag's value, or "unknown" off HotSpot. */
    static String vmOption(String name) {
        try {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return hotspot == null ? "unknown" : hotspot.getVMOption(name).getValue();
        } catch (RuntimeException e) {
            return "unknown";
        }
    }
}
