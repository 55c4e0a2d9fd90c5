package dev.cim.benchmark;

/**
 * The CPU a timer's own thread spends on work the harness handed it, between {@link #open()} and
 * {@link #closeNet()}: the thread's CPU time over the window minus what it would have used anyway,
 * its idle rate (measured beforehand with {@link CpuClock#idleRate}) times the window's length.
 */
final class TimerCpuWindow {

    private final Thread thread;
    private final double idleRate;
    private long wall0;
    private long cpu0;
    private long wallNanos = -1;

    TimerCpuWindow(Thread thread, double idleRate) {
        this.thread = thread;
        this.idleRate = idleRate;
    }

    void open() {
        cpu0 = CpuClock.cpuNanos(thread);
        wall0 = System.nanoTime();
    }

    /** Closes the window; returns the thread's CPU nanos over it, less the idle share. */
    long closeNet() {
        long cpu1 = CpuClock.cpuNanos(thread);
        wallNanos = System.nanoTime() - wall0;
        return (cpu1 - cpu0) - Math.round(idleRate * wallNanos);
    }

    /** The window's wall-clock length, once closed. */
    long wallNanos() {
        return wallNanos;
    }
}
