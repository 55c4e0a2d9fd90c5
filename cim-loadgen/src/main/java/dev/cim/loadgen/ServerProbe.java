package dev.cim.loadgen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the memory of a server JVM on this host without JMX:
 * <ul>
 *   <li><b>live heap</b>: {@code jcmd <pid> GC.run} (a full collection, so only reachable objects
 *       remain), then the {@code used} figure of {@code jcmd <pid> GC.heap_info};</li>
 *   <li><b>RSS</b>: {@code VmRSS} of {@code /proc/<pid>/status}: heap pages touched so far, thread
 *       stacks, Netty's direct buffers, code, metaspace;</li>
 *   <li><b>open files</b>: the entries of {@code /proc/<pid>/fd}, one per socket among them.</li>
 * </ul>
 * {@code jcmd} is the one of the JDK running the generator; it must be the server's JDK too.
 */
final class ServerProbe {

    /** One reading; a figure that could not be read is -1. */
    record Reading(long liveHeapBytes, long rssBytes, long openFiles) {
    }

    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");
    private static final Pattern VM_RSS = Pattern.compile("VmRSS:\\s+(\\d+) kB");

    private final long pid;
    private final Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");

    ServerProbe(long pid) {
        this.pid = pid;
    }

    /** Collects garbage in the server, then reads all three figures. */
    Reading read() {
        jcmd("GC.run");
        return new Reading(liveHeap(), rss(), openFiles());
    }

    private long liveHeap() {
        Matcher used = HEAP_USED.matcher(jcmd("GC.heap_info"));
        return used.find() ? Long.parseLong(used.group(1)) * 1024 : -1;
    }

    private long rss() {
        try {
            Matcher rss = VM_RSS.matcher(Files.readString(Path.of("/proc", Long.toString(pid), "status")));
            return rss.find() ? Long.parseLong(rss.group(1)) * 1024 : -1;
        } catch (IOException e) {
            return -1;
        }
    }

    /** Open files of the server now; -1 if unreadable. */
    long openFiles() {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.count();
        } catch (IOException e) {
            return -1;
        }
    }

    /** Runs one jcmd command and returns its output, or "" if it failed (the figure is then -1). */
    private String jcmd(String command) {
        try {
            Process process = new ProcessBuilder(List.of(jcmd.toString(), Long.toString(pid), command))
                    .redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return "";
            }
            return new String(output, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
