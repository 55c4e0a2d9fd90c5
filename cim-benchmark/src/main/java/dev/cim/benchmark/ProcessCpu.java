package dev.cim.benchmark;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time of the whole process, every thread of it (JIT compiler, GC and other JVM threads
 * included), in nanoseconds. On Linux it sums the first field of {@code /proc/self/task/<tid>/schedstat},
 * each thread's time on a CPU in nanoseconds; the JVM's own figure
 * ({@link OperatingSystemMXBean#getProcessCpuTime()}) counts in clock ticks of 10 ms, a resolution of
 * 0.1 % of a core over a 10 s window, too coarse to tell idle timers apart. Elsewhere it falls back
 * to that figure.
 */
final class ProcessCpu {

    private static final Path TASKS = Path.of("/proc/self/task");
    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** A reading: per-thread times where available, else the process total under key -1. */
    record Reading(Map<Long, Long> byThread) {
    }

    private ProcessCpu() {
    }

    static String source() {
        return Files.isDirectory(TASKS) ? "/proc/self/task/*/schedstat (ns)" : "OperatingSystemMXBean (10 ms ticks)";
    }

    static Reading read() {
        Map<Long, Long> byThread = new HashMap<>();
        if (Files.isDirectory(TASKS)) {
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
                for (Path task : tasks) {
                    try {
                        String stat = Files.readString(task.resolve("schedstat")).trim();
                        byThread.put(Long.parseLong(task.getFileName().toString()),
                                Long.parseLong(stat.substring(0, stat.indexOf(' '))));
                    } catch (IOException | RuntimeException gone) {
                        // the thread ended while we looked
                    }
                }
                return new Reading(byThread);
            } catch (IOException e) {
                byThread.clear();
            }
        }
        byThread.put(-1L, OS.getProcessCpuTime());
        return new Reading(byThread);
    }

    /**
     * The CPU time spent between two readings: for each thread in the later one, its time since the
     * earlier one (all of it if it is new). A thread that ended in between is missed.
     */
    static long between(Reading before, Reading after) {
        long total = 0;
        for (Map.Entry<Long, Long> thread : after.byThread().entrySet()) {
            total += thread.getValue() - before.byThread().getOrDefault(thread.getKey(), 0L);
        }
        return total;
    }
}
