package dev.cim.benchmark;

import com.sun.management.GarbageCollectorMXBean;
import com.sun.management.GcInfo;
import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.management.ObjectName;

/** Heap occupancy after full collections, and the VM settings that decide object sizes. */
final class HeapProbe {

    private static final Set<String> HEAP_POOLS = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP)
            .map(MemoryPoolMXBean::getName)
            .collect(Collectors.toSet());

    private static final Pattern HISTOGRAM_TOTAL = Pattern.compile("(?m)^Total\\s+(\\d+)\\s+(\\d+)\\s*$");

    private HeapProbe() {
    }

    /**
     * The bytes of all reachable objects, exactly: the total of a live class histogram (the
     * {@code GC.class_histogram} diagnostic command, which collects first), read in-process. Falls back
     * to {@link #usedAfterGc()} where the command is unavailable.
     *
     * <p>Preferred over heap occupancy because G1's full collection leaves some dead space in regions
     * it does not compact and per-worker partly filled regions, which varies by tens of KB from one
     * collection to the next; the histogram counts objects, not regions.
     */
    static long liveBytes() throws InterruptedException {
        System.gc();
        Thread.sleep(50);
        try {
            Object text = ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
            Matcher total = HISTOGRAM_TOTAL.matcher(String.valueOf(text));
            if (total.find()) {
                return Long.parseLong(total.group(2));
            }
        } catch (Exception e) {
            Log.info("class histogram unavailable (%s); falling back to heap use after GC", e);
        }
        return usedAfterGc();
    }

    /**
     * Runs {@code System.gc()} several times, pausing between, and returns the heap in use as the
     * last collection left it: the bytes reachable then.
     *
     * <p>It is read from that collection's own record ({@link GcInfo#getMemoryUsageAfterGc()}), not
     * from the heap's current use: with thread-local allocation buffers, any allocation right after a
     * collection, even of the reading's own result object, counts a whole new buffer (up to hundreds of
     * KB, sized per thread) as used.
     */
    static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        System.gc();
        GcInfo last = null;
        for (java.lang.management.GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (bean instanceof GarbageCollectorMXBean hotspot) {
                GcInfo info = hotspot.getLastGcInfo();
                if (info != null && (last == null || info.getEndTime() > last.getEndTime())) {
                    last = info;
                }
            }
        }
        if (last == null) {
            throw new IllegalStateException("no GC information from this JVM");
        }
        long used = 0;
        for (Map.Entry<String, MemoryUsage> pool : last.getMemoryUsageAfterGc().entrySet()) {
            if (HEAP_POOLS.contains(pool.getKey())) {
                used += pool.getValue().getUsed();
            }
        }
        return used;
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
