package dev.cim.loadgen;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Accounts for every message of one measurement by its sequence number: numbers are issued
 * 0, 1, 2, ... as messages are sent, and each receipt is ticked off once. So a message is
 * <b>lost</b> when its number was issued but never received, and <b>duplicated</b> when its number
 * is received again; a number never issued is <b>unknown</b> (a corrupted or foreign token).
 *
 * <h3>No lock</h3>
 * Receipts are ticked off on the client event loops, for every message. A lock there would be
 * measured too: on two shared cores, a loop that holds it can be preempted, and the other loop then
 * waits a scheduler slice (milliseconds) for it, which showed as latency. So each number is one bit,
 * set with a compare-and-set, in chunks of {@value #CHUNK_BITS} bits made when first needed; the
 * counts are {@link LongAdder}s.
 */
final class DeliveryLedger {

    private static final int CHUNK_SHIFT = 20;
    static final int CHUNK_BITS = 1 << CHUNK_SHIFT;
    /** Up to 2^31 numbers, as many as a run could issue. */
    private static final int MAX_CHUNKS = 1 << (31 - CHUNK_SHIFT);

    private final AtomicLong issued = new AtomicLong();
    private final AtomicReferenceArray<AtomicLongArray> chunks = new AtomicReferenceArray<>(MAX_CHUNKS);
    private final LongAdder received = new LongAdder();
    private final LongAdder duplicates = new LongAdder();
    private final LongAdder unknown = new LongAdder();

    /**
     * @param expected how many messages are likely: their chunks are made now, so that no receiving
     *                 thread (an event loop) stops to allocate one
     */
    DeliveryLedger(int expected) {
        for (long bit = 0; bit < Math.max(1, expected); bit += CHUNK_BITS) {
            chunk((int) (bit >>> CHUNK_SHIFT));
        }
    }

    /** The number for the next message sent. */
    long issue() {
        return issued.getAndIncrement();
    }

    /**
     * The first of {@code count} consecutive numbers, issued at once (so that no other thread's
     * numbers fall between them): for one message whose copies are accounted for each.
     */
    long issue(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count: " + count + " (expected: >= 1)");
        }
        return issued.getAndAdd(count);
    }

    /** Ticks off {@code seq}; true only for its first receipt. Safe from any thread. */
    boolean receive(long seq) {
        if (seq < 0 || seq >= issued.get() || seq >= (long) MAX_CHUNKS * CHUNK_BITS) {
            unknown.increment();
            return false;
        }
        AtomicLongArray words = chunk((int) (seq >>> CHUNK_SHIFT));
        int bit = (int) (seq & (CHUNK_BITS - 1));
        long mask = 1L << bit; // the shift uses the low 6 bits: the bit within its word
        int word = bit >>> 6;
        long old;
        do {
            old = words.get(word);
            if ((old & mask) != 0) {
                duplicates.increment();
                return false;
            }
        } while (!words.compareAndSet(word, old, old | mask));
        received.increment();
        return true;
    }

    private AtomicLongArray chunk(int index) {
        AtomicLongArray chunk = chunks.get(index);
        if (chunk == null) {
            chunks.compareAndSet(index, null, new AtomicLongArray(CHUNK_BITS / 64));
            chunk = chunks.get(index);
        }
        return chunk;
    }

    long issued() {
        return issued.get();
    }

    long received() {
        return received.sum();
    }

    long duplicates() {
        return duplicates.sum();
    }

    long unknown() {
        return unknown.sum();
    }

    /** Issued and not received. */
    long lost() {
        return issued.get() - received.sum();
    }

    /** Waits until every issued message was received or {@code timeout} passed; true if none is missing. */
    boolean awaitAll(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (lost() > 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // polling a condition, with a deadline
        }
        return lost() == 0;
    }
}
