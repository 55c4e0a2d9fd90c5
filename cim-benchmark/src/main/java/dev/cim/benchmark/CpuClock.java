package dev.cim.benchmark;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.locks.LockSupport;

/**
 * CPU time of single threads, from {@link ThreadMXBean#getThreadCpuTime(long)} (user + system time,
 * nanoseconds). CPU time, unlike wall time, does not count the time a thread waits for a core, so it
 * holds up better on a shared, busy machine; it does not count GC threads either.
 */
final class CpuClock {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuClock() {
    }

    /** Turns thread CPU timing on, or fails if this JVM cannot measure it. */
    static void enable() {
        if (!THREADS.isThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM does not support thread CPU time");
        }
        if (!THREADS.isThreadCpuTimeEnabled()) {
            THREADS.setThreadCpuTimeEnabled(true);
        }
    }

    /** The CPU time {@code thread} has used so far. */
    static long cpuNanos(Thread thread) {
        long nanos = THREADS.getThreadCpuTime(thread.getId());
        if (nanos < 0) {
            throw new IllegalStateException("no CPU time for thread " + thread.getName() + " (not alive?)");
        }
        return nanos;
    }

    /** The CPU time the calling thread has used so far. */
    static long currentThreadCpuNanos() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /**
     * The CPU time {@code thread} uses per nanosecond of wall time while left alone, measured over
     * {@code windowNanos}. Multiplied by the length of a measurement window, it is that thread's
     * idle cost to subtract from the window.
     */
    static double idleRate(Thread thread, long windowNanos) {
        long wall0 = System.nanoTime();
        long cpu0 = cpuNanos(thread);
        sleepNanos(windowNanos);
        long cpu1 = cpuNanos(thread);
        long wall1 = System.nanoTime();
        return (double) (cpu1 - cpu0) / (wall1 - wall0);
    }

    /** Sleeps at least {@code nanos}, through early wake-ups. */
    static void sleepNanos(long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
