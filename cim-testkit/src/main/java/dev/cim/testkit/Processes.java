package dev.cim.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Whether a process still runs, and stopping one so that nothing it started outlives it: what a
 * test that checks for processes left behind, and the load generator that starts a server (which
 * starts its own Redis and that one's watchdog), both need.
 *
 * <p>What a process started is no longer among its descendants once it is gone (its children are
 * orphaned, and adopted by pid 1), so {@link #stop} takes them as recorded while it ran, as well as
 * those it still has. {@link ProcessHandle} knows each one's start time, so a pid reused since is
 * never signalled.
 */
public final class Processes {

    /** After SIGKILL only the kernel's tear-down of the process is left. */
    private static final Duration KILLED = Duration.ofSeconds(10);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private Processes() {
    }

    /** What {@link #stop} had to do: kill the process, and kill these processes it had started. */
    public record Stopped(boolean killed, List<ProcessHandle> leftovers) {

        public Stopped {
            leftovers = List.copyOf(leftovers);
        }
    }

    /**
     * Whether {@code process} still runs. {@link ProcessHandle#isAlive()} alone also counts a
     * zombie, a process that has exited but not yet been reaped by its parent; an orphan's new parent
     * (pid 1) may take seconds to reap it, or never do (a container whose pid 1 does not reap). On
     * Linux the state in {@code /proc/<pid>/stat} tells a zombie apart; elsewhere this is
     * {@code isAlive()}.
     */
    public static boolean running(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"),
                    StandardCharsets.US_ASCII);
            // "pid (command) state ...": the command may hold spaces and parentheses, the state
            // follows the last ')'.
            int commandEnd = stat.lastIndexOf(')');
            return commandEnd < 0 || commandEnd + 2 >= stat.length() || stat.charAt(commandEnd + 2) != 'Z';
        } catch (IOException e) {
            return process.isAlive(); // no /proc (not Linux), or the process has just gone
        }
    }

    /**
     * Stops {@code process}: SIGTERM, then SIGKILL if it still runs after {@code grace}. Then waits
     * up to {@code leftoverGrace} for {@code started} and the process's current descendants to exit,
     * kills (SIGKILL) those that have not, and returns once they are gone (or after 10 s more).
     *
     * @param started processes {@code process} started, recorded while it ran: once it is gone they
     *                are no longer its descendants
     */
    public static Stopped stop(Process process, List<ProcessHandle> started, Duration grace, Duration leftoverGrace) {
        Objects.requireNonNull(process, "process (expected: the process to stop)");
        if (grace.isNegative() || leftoverGrace.isNegative()) {
            throw new IllegalArgumentException("grace " + grace + ", leftover grace " + leftoverGrace
                    + " (expected: zero or more)");
        }
        Set<ProcessHandle> descendants = new LinkedHashSet<>(started);
        process.descendants().forEach(descendants::add);
        boolean killed = false;
        try {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                    killed = true;
                    process.destroyForcibly().waitFor(KILLED.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
            awaitGone(descendants, leftoverGrace);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        List<ProcessHandle> leftovers = descendants.stream().filter(Processes::running).toList();
        leftovers.forEach(ProcessHandle::destroyForcibly);
        // SIGKILL is delivered asynchronously: return once they are gone, so nothing outlives this call.
        awaitGone(leftovers, KILLED);
        return new Stopped(killed, leftovers);
    }

    /** Polls, with a deadline, until none of {@code processes} runs. */
    private static void awaitGone(Iterable<ProcessHandle> processes, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (anyRunning(processes) && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    private static boolean anyRunning(Iterable<ProcessHandle> processes) {
        for (ProcessHandle process : processes) {
            if (running(process)) {
                return true;
            }
        }
        return false;
    }
}
