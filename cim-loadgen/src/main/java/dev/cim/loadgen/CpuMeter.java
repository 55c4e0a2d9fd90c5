package dev.cim.loadgen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 *
 * <p>A process's time includes that of its children once they have ended and it has reaped them
 * (Linux's {@code cutime} and {@code cstime}): Redis forks a child to rewrite its append-only file,
 * and under the history's writes those children used a fifth as much CPU as Redis itself. A child
 * that is measured itself (the embedded Redis, child of the server's process) is not counted again
 * in its parent. A child still running is counted once it ends, and the servers are not quiet
 * ({@link #awaitQuiet}) while it uses CPU.
 */
final class CpuMeter {

    /**
     * CPU time at one moment: the servers' (all nodes), the generator's, and the other processes'
     * ({@code --cpu-pids}); a part that could not be read, or was not asked for, is absent.
     */
    record Reading(Optional<Duration> server, Optional<Duration> generator, Optional<Duration> others) {
    }

    /** Linux's {@code USER_HZ}, the unit of /proc's times: 100 on every architecture it runs on. */
    private static final long TICKS_PER_SECOND = 100;

    private final List<Measured> servers;
    private final List<Measured> others;

    /** A process, and whether its reaped children count for it (none of them is measured itself). */
    private record Measured(ProcessHandle process, boolean withChildren) {
    }

    /** @param serverPid the server's pid, or 0 if unknown (then only the generator is read) */
    CpuMeter(long serverPid) {
        this(serverPid > 0 ? List.of(serverPid) : List.of(), List.of());
    }

    /**
     * @param serverPids the servers' pids (every node), none if unknown
     * @param otherPids  other processes to report (an external Redis), or none
     */
    CpuMeter(List<Long> serverPids, List<Long> otherPids) {
        List<Long> all = new ArrayList<>(serverPids);
        all.addAll(otherPids);
        this.servers = measured(serverPids, all);
        this.others = measured(otherPids, all);
    }

    private static List<Measured> measured(List<Long> pids, List<Long> all) {
        List<Measured> measured = new ArrayList<>(pids.size());
        for (long pid : pids) {
            ProcessHandle.of(pid).ifPresent(process -> measured.add(new Measured(process, !parentOfAny(pid, all))));
        }
        return List.copyOf(measured);
    }

    /** True when {@code pid} is the parent of one of {@code pids}. */
    private static boolean parentOfAny(long pid, List<Long> pids) {
        return pids.stream().anyMatch(child -> ProcessHandle.of(child).flatMap(ProcessHandle::parent)
                .map(parent -> parent.pid() == pid).orElse(false));
    }

    Reading read() {
        return new Reading(total(servers), ProcessHandle.current().info().totalCpuDuration(), total(others));
    }

    /** The processes' CPU time together; absent when there are none or one cannot be read. */
    private static Optional<Duration> total(List<Measured> processes) {
        if (processes.isEmpty()) {
            return Optional.empty();
        }
        Duration sum = Duration.ZERO;
        for (Measured measured : processes) {
            Optional<Duration> cpu = measured.process().info().totalCpuDuration();
            if (cpu.isEmpty()) {
                return Optional.empty();
            }
            sum = sum.plus(cpu.get());
            if (measured.withChildren()) {
                sum = sum.plus(reapedChildren(measured.process().pid()));
            }
        }
        return Optional.of(sum);
    }

    /** The CPU time of the process's ended and reaped children; zero where /proc cannot be read. */
    static Duration reapedChildren(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // After the command's closing parenthesis (the command may hold spaces): field 3 on.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[16 - 3]) + Long.parseLong(fields[17 - 3]); // cutime, cstime
            return Duration.ofMillis(ticks * 1000 / TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return Duration.ZERO; // not Linux, or the process is gone: its own time is all there is
        }
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
            Optional<Duration> from = busy();
            long start = System.nanoTime();
            TimeUnit.NANOSECONDS.sleep(window.toNanos()); // the window is the measurement
            Optional<Duration> to = busy();
            if (from.isEmpty() || to.isEmpty()) {
                return false;
            }
            if (to.get().minus(from.get()).toNanos() < share * (System.nanoTime() - start)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The servers' CPU time with what their running children not measured themselves have used so
     * far: a child at work (Redis rewriting its append-only file) keeps a server from being quiet,
     * one that only waits (ejabberd's helper processes) does not.
     */
    private Optional<Duration> busy() {
        Optional<Duration> own = total(servers);
        if (own.isEmpty()) {
            return own;
        }
        Duration sum = own.get();
        for (Measured measured : servers) {
            if (measured.withChildren()) {
                sum = sum.plus(measured.process().children()
                        .map(child -> child.info().totalCpuDuration().orElse(Duration.ZERO))
                        .reduce(Duration.ZERO, Duration::plus));
            }
        }
        return Optional.of(sum);
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
