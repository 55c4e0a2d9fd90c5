package dev.cim.loadgen;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * CPU time (user and system, every thread) used by the server and by this generator between two
 * readings, per message: what a message costs each side, system calls included. On two shared
 * cores this says more than a rate, since both processes compete for the same CPU.
 */
final class CpuMeter {

    /** CPU time of both processes at one moment; a part that could not be read is absent. */
    record Reading(Optional<Duration> server, Optional<Duration> generator) {
    }

    private final ProcessHandle server;

    /** @param serverPid the server's pid, or 0 if unknown (then only the generator is read) */
    CpuMeter(long serverPid) {
        this.server = serverPid > 0 ? ProcessHandle.of(serverPid).orElse(null) : null;
    }

    Reading read() {
        return new Reading(server == null ? Optional.empty() : server.info().totalCpuDuration(),
                ProcessHandle.current().info().totalCpuDuration());
    }

    /** "CPU per message: server 12.3 µs, generator 14.5 µs", from two readings around {@code messages}. */
    static String perMessage(Reading from, Reading to, long messages) {
        if (messages <= 0) {
            return "CPU per message: no messages";
        }
        return "CPU per message: server " + micros(from.server(), to.server(), messages) + ", generator "
                + micros(from.generator(), to.generator(), messages);
    }

    private static String micros(Optional<Duration> from, Optional<Duration> to, long messages) {
        if (from.isEmpty() || to.isEmpty()) {
            return "unknown";
        }
        double nanos = to.get().minus(from.get()).toNanos();
        return String.format(Locale.ROOT, "%.1f µs", nanos / messages / 1000);
    }
}
