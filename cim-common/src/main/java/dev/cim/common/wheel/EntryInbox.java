package dev.cim.common.wheel;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The lock-free hand-off from the threads that schedule and cancel to the one thread that owns the
 * wheel at a time (the holder of the wheel lock). Two intrusive stacks, one for new entries and one
 * for cancelled ones, so neither path allocates.
 *
 * <p>A schedule is a single {@code getAndSet} of the stack top, which never retries however many
 * threads push at once (a compare-and-set loop would). The price is a moment in which the new top is
 * published but its link to the entry below is not yet written; the link holds {@link #LINKING}
 * then, and the consumer waits those few instructions out. A cancel pushes with a compare-and-set
 * loop instead: cancels are rarer and contend less, and writing the link only once, before the
 * publishing CAS, saves a store (and a garbage-collector write barrier) into an entry that is usually
 * old. The consumer takes a whole stack with one {@code getAndSet(null)}, so it never contends with
 * producers entry by entry, and clears each link as it goes, so that no entry keeps another in
 * memory. Order within a batch does not matter: each entry goes to the bucket of its own due time.
 */
final class EntryInbox {

    /** Marks a link that its producer has not written yet. Never scheduled. */
    static final WheelEntry LINKING = WheelEntry.sentinel(-1);

    private final AtomicReference<WheelEntry> scheduled = new AtomicReference<>();
    private final AtomicReference<WheelEntry> cancelled = new AtomicReference<>();

    /**
     * Hands over a new entry. Any thread.
     *
     * @return whether it is the first since the owner last took them
     */
    boolean offerScheduled(WheelEntry entry) {
        entry.next = LINKING; // published by the getAndSet below
        WheelEntry below = scheduled.getAndSet(entry);
        entry.setNextRelease(below);
        return below == null;
    }

    /**
     * Hands over a cancelled entry. Any thread.
     *
     * @return whether it is the first since the owner last took them, i.e. whether someone must
     *         tell the owner there are cancellations to take
     */
    boolean offerCancelled(WheelEntry entry) {
        WheelEntry top;
        do {
            top = cancelled.get();
            entry.setCancelNext(top); // published by the compare-and-set
        } while (!cancelled.compareAndSet(top, entry));
        return top == null;
    }

    /**
     * Takes every new entry handed over so far and gives each to {@code sink}, which may relink it.
     * Only the owner of the wheel.
     *
     * <p>Failure-atomic: if the sink throws, the entry it threw on (unless the sink had filed it) and
     * the ones not yet given are handed over again before the exception leaves, so the next drain
     * finds them.
     */
    void drainScheduled(Consumer<WheelEntry> sink) {
        WheelEntry entry = scheduled.getAndSet(null);
        WheelEntry below = null;
        try {
            while (entry != null) {
                below = awaitNext(entry);
                entry.next = null; // the sink may relink it; one it drops must hold no other entry
                sink.accept(entry);
                entry = below;
            }
        } finally {
            if (entry != null) { // the sink threw on it
                if (entry.prev == null) {
                    offerScheduled(entry);
                }
                while (below != null) {
                    WheelEntry next = awaitNext(below);
                    offerScheduled(below);
                    below = next;
                }
            }
        }
    }


    /** Takes every cancelled entry handed over so far and gives each to {@code sink}. Only the owner. */
    void drainCancelled(Consumer<WheelEntry> sink) {
        WheelEntry entry = cancelled.getAndSet(null);
        while (entry != null) {
            WheelEntry below = entry.cancelNext();
            entry.setCancelNext(null); // a cancelled handle the caller keeps must hold no other entry
            sink.accept(entry);
            entry = below;
        }
    }

    /** Visits the new entries not yet drained, leaving them in place. Only the owner. */
    void forEachScheduled(Consumer<WheelEntry> visitor) {
        for (WheelEntry entry = scheduled.get(); entry != null; entry = awaitNext(entry)) {
            visitor.accept(entry);
        }
    }

    private static WheelEntry awaitNext(WheelEntry entry) {
        WheelEntry next;
        while ((next = entry.nextAcquire()) == LINKING) {
            Thread.onSpinWait(); // its producer is between two instructions
        }
        return next;
    }

}
