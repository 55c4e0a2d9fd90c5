package dev.cim.client.core;

import java.nio.file.Path;

/**
 * The message ids a client has already shown, so that a message delivered again (its
 * acknowledgement was lost with a connection, or the client crashed before acknowledging it) is
 * shown once. Bounded: it remembers the most recent {@code capacity} ids, which covers what a
 * server can deliver again (what a session had not acknowledged when it closed).
 *
 * <p>Used by one client's I/O thread only.
 */
public interface SeenIds {

    /**
     * Records {@code key} (sender and message id) as seen.
     *
     * @return true the first time, false when it was seen already
     */
    boolean markSeen(String key);

    /**
     * Makes the ids marked so far survive a crash of this process, if this store can (it is called
     * before the client acknowledges what it received).
     */
    void sync();

    /**
     * Remembers nothing: every delivery is handed on, repeats included. For programs that count
     * repeats themselves (a load generator, a test).
     */
    static SeenIds none() {
        return new SeenIds() {
            @Override
            public boolean markSeen(String key) {
                return true;
            }

            @Override
            public void sync() {
            }
        };
    }

    /** Ids kept in memory only: a restarted client may show again what it had not acknowledged. */
    static SeenIds inMemory(int capacity) {
        return new MemorySeenIds(capacity);
    }

    /**
     * Ids kept in memory and appended to {@code file}, which is read at start: a client killed
     * after showing a message and before acknowledging it does not show it again when restarted.
     * The file is rewritten with the last {@code capacity} ids when it grows past twice that.
     */
    static SeenIds file(Path file, int capacity) {
        return FileSeenIds.open(file, capacity);
    }
}
