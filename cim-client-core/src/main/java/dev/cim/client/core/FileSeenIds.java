package dev.cim.client.core;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link SeenIds} that survive a crash of the process: each id is appended to a file, one per line,
 * and {@link #sync()} hands the appended bytes to the operating system (a {@code write}, no
 * {@code fsync}: what is written survives the process, which is the crash that matters here, though
 * not a crash of the machine). The file is read at start and compacted to the last {@code capacity}
 * ids when it grows past twice that.
 */
final class FileSeenIds implements SeenIds {

    private static final Logger log = LoggerFactory.getLogger(FileSeenIds.class);

    private final Path file;
    private final MemorySeenIds memory;
    private BufferedWriter out;
    private int lines;

    private FileSeenIds(Path file, MemorySeenIds memory, int lines) {
        this.file = file;
        this.memory = memory;
        this.lines = lines;
    }

    static FileSeenIds open(Path file, int capacity) {
        MemorySeenIds memory = new MemorySeenIds(capacity);
        int lines = 0;
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            if (Files.exists(file)) {
                List<String> read = Files.readAllLines(file, StandardCharsets.UTF_8);
                for (String line : read) {
                    if (!line.isEmpty()) {
                        memory.markSeen(line);
                    }
                }
                lines = read.size();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the seen-messages file " + file, e);
        }
        FileSeenIds seen = new FileSeenIds(file, memory, lines);
        seen.openForAppend();
        return seen;
    }

    @Override
    public boolean markSeen(String key) {
        if (!memory.markSeen(key)) {
            return false;
        }
        try {
            out.write(key);
            out.write('\n');
            lines++;
        } catch (IOException e) {
            log.warn("Cannot record seen message {} in {}: {}", key, file, e.toString());
        }
        return true;
    }

    @Override
    public void sync() {
        try {
            out.flush();
            if (lines > 2 * memory.capacity()) {
                compact();
            }
        } catch (IOException e) {
            log.warn("Cannot write the seen-messages file {}: {}", file, e.toString());
        }
    }

    private void compact() throws IOException {
        out.close();
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try (BufferedWriter writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
            for (String id : memory.ids()) {
                writer.write(id);
                writer.write('\n');
            }
        }
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        lines = memory.size();
        openForAppend();
    }

    private void openForAppend() {
        try {
            out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the seen-messages file " + file, e);
        }
    }
}
