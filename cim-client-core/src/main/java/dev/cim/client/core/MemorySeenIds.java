package dev.cim.client.core;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@link SeenIds} in a bounded insertion-ordered map: the oldest id goes when a new one comes. */
final class MemorySeenIds implements SeenIds {

    private final int capacity;
    private final LinkedHashMap<String, Boolean> ids;

    MemorySeenIds(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: >= 1)");
        }
        this.capacity = capacity;
        this.ids = new LinkedHashMap<>(Math.min(capacity, 1 << 16) * 4 / 3 + 1) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > MemorySeenIds.this.capacity;
            }
        };
    }

    @Override
    public boolean markSeen(String key) {
        return ids.putIfAbsent(key, Boolean.TRUE) == null;
    }

    @Override
    public void sync() {
    }

    int capacity() {
        return capacity;
    }

    /** The ids, oldest first. */
    Iterable<String> ids() {
        return ids.keySet();
    }

    int size() {
        return ids.size();
    }
}
