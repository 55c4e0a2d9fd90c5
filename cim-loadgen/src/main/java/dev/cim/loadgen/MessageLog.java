package dev.cim.loadgen;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Every message of one paced run, for {@code --latency-log}: when it was meant to leave, its latency
 * and the generator's own lag before writing it, kept in memory while the run lasts (three longs a
 * message, up to its capacity) and written to a file after it, one line a message,
 * {@code <intended µs from the run's start> <latency µs> <lag µs>}, in the order received. The
 * percentiles say how slow the tail is; this says when the slow messages came: together (a stall
 * of one process, a collection) or spread out.
 */
final class MessageLog {

    private final Path file;
    private final long[] entries;
    private final AtomicInteger next = new AtomicInteger();

    /**
     * @param capacity the most messages kept; those received beyond are left out of the file
     */
    MessageLog(Path file, int capacity) {
        if (capacity < 0 || capacity > Integer.MAX_VALUE / 3) {
            throw new IllegalArgumentException("capacity " + capacity + " (expected: 0 to " + Integer.MAX_VALUE / 3 + ")");
        }
        this.file = file;
        this.entries = new long[capacity * 3];
    }

    /** Any thread: one message received; times in ns of {@link System#nanoTime()}. */
    void add(long intended, long received, long written) {
        int i = next.getAndIncrement();
        if (i < entries.length / 3) {
            entries[3 * i] = intended;
            entries[3 * i + 1] = received - intended;
            entries[3 * i + 2] = written - intended;
        }
    }

    /** Writes what was kept, times from {@code start} (ns); after the run, once every message has come or been given up. */
    void write(long start) {
        int n = Math.min(next.get(), entries.length / 3);
        try {
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not make the latency log's directory " + file.getParent(), e);
        }
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            for (int i = 0; i < n; i++) {
                out.write((entries[3 * i] - start) / 1000 + " " + entries[3 * i + 1] / 1000 + " " + entries[3 * i + 2] / 1000);
                out.newLine();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the latency log " + file, e);
        }
    }
}
