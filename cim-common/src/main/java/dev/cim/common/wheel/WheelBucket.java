package dev.cim.common.wheel;

import java.util.function.Consumer;

/**
 * One slot of a ring: an intrusive, circular, doubly-linked list of entries with a sentinel head, so
 * adding and removing an entry are O(1) and need no reference from the entry back to its bucket.
 * Not thread-safe: only the owner of the wheel touches it.
 */
final class WheelBucket {

    private final WheelEntry head = WheelEntry.sentinel();

    void add(WheelEntry entry) {
        assert entry.prev == null : "entry is already in a bucket: " + entry;
        WheelEntry last = head.prev;
        entry.prev = last;
        entry.next = head;
        last.next = entry;
        head.prev = entry;
    }

    /** Unlinks an entry from whichever bucket holds it; does nothing if it is in none. */
    static void remove(WheelEntry entry) {
        WheelEntry before = entry.prev;
        if (before == null) {
            return;
        }
        WheelEntry after = entry.next;
        before.next = after;
        after.prev = before;
        entry.prev = null;
        entry.next = null;
    }

    boolean isEmpty() {
        return head.next == head;
    }

    /**
     * Empties the bucket, then gives each former entry, unlinked, to {@code sink}. The bucket is
     * emptied first so the sink may add entries back to it.
     */
    void drainTo(Consumer<WheelEntry> sink) {
        WheelEntry entry = head.next;
        if (entry == head) {
            return;
        }
        head.prev.next = null; // end of the detached chain
        head.next = head;
        head.prev = head;
        while (entry != null) {
            WheelEntry following = entry.next;
            entry.prev = null;
            entry.next = null;
            sink.accept(entry);
            entry = following;
        }
    }

    /** Visits every entry in place. */
    void forEach(Consumer<WheelEntry> visitor) {
        for (WheelEntry entry = head.next; entry != head; entry = entry.next) {
            visitor.accept(entry);
        }
    }
}
