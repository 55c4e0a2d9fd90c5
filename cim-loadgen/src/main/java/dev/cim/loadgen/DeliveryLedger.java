package dev.cim.loadgen;

import java.time.Duration;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Accounts for every message of one measurement by its sequence number: numbers are issued
 * 0, 1, 2, ... as messages are sent, and each receipt is ticked off once. So a message is
 * <b>lost</b> when its number was issued but never received, and <b>duplicated</b> when its number
 * is received again; a number never issued is <b>unknown</b> (a corrupted or foreign token).
 * Thread-safe; receipts synchronize on one bit set, which is cheap next to a network round trip.
 */
final class DeliveryLedger {

    private final AtomicLong issued = new AtomicLong();
    private final BitSet received;
    private long receivedCount;
    private long duplicates;
    private long unknown;

    /**
     * @param expected how many messages are likely: room for them is made now, so that no receiving
     *                 thread (an event loop) stops to grow the bit set
     */
    DeliveryLedger(int expected) {
        received = new BitSet(Math.max(64, expected));
    }

    /** The number for the next message sent. */
    long issue() {
        return issued.getAndIncrement();
    }

    /** Ticks off {@code seq}; true only for its first receipt. */
    synchronized boolean receive(long seq) {
        if (seq < 0 || seq >= issued.get() || seq > Integer.MAX_VALUE) {
            unknown++;
            return false;
        }
        if (received.get((int) seq)) {
            duplicates++;
            return false;
        }
        received.set((int) seq);
        receivedCount++;
        return true;
    }

    long issued() {
        return issued.get();
    }

    synchronized long received() {
        return receivedCount;
    }

    synchronized long duplicates() {
        return duplicates;
    }

    synchronized long unknown() {
        return unknown;
    }

    /** Issued and not received. */
    synchronized long lost() {
        return issued.get() - receivedCount;
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
