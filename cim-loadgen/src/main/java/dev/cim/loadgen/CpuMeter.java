package dev.cim.loadgen;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * CPU time (user and system, every thread) used by the server and by this generator between two
 * readings, per message: what a message costs each side, system calls included. On two shared
 * cores this says more than a rate, since both processes compete for the same CPU.
 */
final class CpuMeter {

    /**
     * CPU time at one moment: the servers' (all nodes), the generator's, and the other processes'
     * ({@code --cpu-pids}); a part that could not be read, or was not asked for, is absent.
     */
    record Reading(Optional<Duration> server, Optional<Duration> generator, Optional<Duration> others) {
    }

    private final List<ProcessHandle> servers;
    private final List<ProcessHandle> others;

    /** @param serverPid the server's pid, or 0 if unknown (then only the generator is read) */
    CpuMeter(long serverPid) {
        this(serverPid > 0 ? List.of(serverPid) : List.of(), List.of());
    }

    /**
     * @param serverPids the servers' pids (every node), none if unknown
     * @param otherPids  other processes to report (an external Redis), or none
     */
    CpuMeter(List<Long> serverPids, List<Long> otherPids) {
        this.servers = handles(serverPids);
        this.others = handles(otherPids);
    }

    private static List<ProcessHandle> handles(List<Long> pids) {
        List<ProcessHandle> handles = new ArrayList<>(pids.size());
        for (long pid : pids) {
            ProcessHandle.of(pid).ifPresent(handles::add);
        }
        return List.copyOf(handles);
    }

    Reading read() {
        return new Reading(total(servers), ProcessHandle.current().info().totalCpuDuration(), total(others));
    }

    /** The processes' CPU time together; absent when there are none or one cannot be read. */
    private static Optional<Duration> total(List<ProcessHandle> processes) {
        if (processes.isEmpty()) {
            return Optional.empty();
        }
        Duration sum = Duration.ZERO;
        for (ProcessHandle process : processes) {
            Optional<Duration> cpu = process.info().totalCpuDuration();
            if (cpu.isEmpty()) {
                return Optional.empty();
            }
            sum = sum.plus(cpu.get());
        }
        return Optional.of(sum);
    }

    /**
     * Waits until the server uses less than {@code share} of a core over a {@code window}, for at most
     * {@code deadline}: what an earlier run left it doing (a write-behind draining, a GC) is not the
     * next run's latency.
     *
     * @return true once quiet, false if the deadline passed first (or the server cannot be read)
     */
    boolean awaitQuiet(double share, Duration window, Duration deadline) throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        while (System.nanoTime() < end) {
            Optional<Duration> from = read().server();
            long start = System.nanoTime();
            TimeUnit.NANOSECONDS.sleep(window.toNanos()); // the window is the measurement
            Optional<Duration> to = read().server();
            if (from.isEmpty() || to.isEmpty()) {
                return false;
            }
            if (to.get().minus(from.get()).toNanos() < share * (System.nanoTime() - start)) {
                return true;
            }
        }
        return false;
    }

    /** "CPU per message: server 12.3 µs, generator 14.5 µs", from two readings around {@code messages}. */
    static String perMessage(Reading from, Reading to, long messages) {
        if (messages <= 0) {
            return "CPU per message: no messages";
        }
        return "CPU per message: server " + micros(from.server(), to.server(), messages) + ", generator "
                + micros(from.generator(), to.generator(), messages)
                + (from.others().isPresent() ? ", --cpu-pids " + micros(from.others(), to.others(), messages) : "");
    }

    private static String micros(Optional<Duration> from, Optional<Duration> to, long messages) {
        if (from.isEmpty() || to.isEmpty()) {
            return "unknown";
        }
        double nanos = to.get().minus(from.get()).toNanos();
        return String.format(Locale.ROOT, "%.1f µs", nanos / messages / 1000);
    }
}
