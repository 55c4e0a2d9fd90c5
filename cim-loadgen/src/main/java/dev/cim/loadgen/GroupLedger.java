package dev.cim.loadgen;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Accounts for every copy of the messages posted to one group: each member should receive each
 * message once, but the member who posted it. Members are numbered 0 to {@code members - 1} (their
 * slots); messages 0, 1, 2, ... as they are posted. Copy {@code (m, s)} is number
 * {@code m × members + s} of one {@link DeliveryLedger}, whose numbers for a message are issued at
 * once and whose poster's copy is ticked off as it is posted, so <b>lost</b> counts the copies some
 * member never received, <b>duplicated</b> the copies received again. Each member's first receipts
 * are counted too, to tell when a member has all of them. Lock-free, like the ledger.
 */
final class GroupLedger {

    /** Copy numbers made up front at most: later chunks are made as they are needed. */
    private static final long MAX_PREPARED = 1 << 24;

    private final int members;
    private final DeliveryLedger copies;
    private final AtomicIntegerArray receivedBy;

    /**
     * @param members          the group's members (slots)
     * @param expectedMessages how many messages are likely, to prepare room for their copies
     */
    GroupLedger(int members, int expectedMessages) {
        if (members < 2 || expectedMessages < 0) {
            throw new IllegalArgumentException("members: " + members + ", expected messages: " + expectedMessages
                    + " (expected: members >= 2, messages >= 0)");
        }
        this.members = members;
        this.copies = new DeliveryLedger((int) Math.min(MAX_PREPARED, (long) members * expectedMessages));
        this.receivedBy = new AtomicIntegerArray(members);
    }

    int members() {
        return members;
    }

    /** The number of the next message, which member {@code poster} posts; any thread. */
    long issue(int poster) {
        checkSlot(poster);
        long first = copies.issue(members);
        copies.receive(first + poster); // a member does not receive their own message
        return first / members;
    }

    /**
     * The server refused message {@code message} of {@code poster}: no copy of it is expected. A copy
     * received all the same counts as a duplicate.
     */
    void refused(long message, int poster) {
        checkSlot(poster);
        for (int slot = 0; slot < members; slot++) {
            if (slot != poster) {
                copies.receive(message * members + slot);
            }
        }
    }

    /**
     * Ticks off member {@code slot}'s copy of {@code message}; true only for its first receipt. A
     * message never issued counts as unknown. Any thread.
     */
    boolean receive(long message, int slot) {
        checkSlot(slot);
        if (message < 0 || message > Long.MAX_VALUE / members) {
            copies.receive(-1); // unknown
            return false;
        }
        if (!copies.receive(message * members + slot)) {
            return false;
        }
        receivedBy.incrementAndGet(slot);
        return true;
    }

    private void checkSlot(int slot) {
        if (slot < 0 || slot >= members) {
            throw new IllegalArgumentException("member slot: " + slot + " (expected: 0 to " + (members - 1) + ")");
        }
    }

    /** Messages issued. */
    long messages() {
        return copies.issued() / members;
    }

    /** How many copies member {@code slot} has received, once each (their own messages not counted). */
    int receivedBy(int slot) {
        checkSlot(slot);
        return receivedBy.get(slot);
    }

    /** Copies expected and not received. */
    long lost() {
        return copies.lost();
    }

    /** Copies received again. */
    long duplicates() {
        return copies.duplicates();
    }

    /** Receipts of messages never issued. */
    long unknown() {
        return copies.unknown();
    }

    /** Waits until no copy is missing or {@code timeout} passed; true if none is missing. */
    boolean awaitAll(Duration timeout) {
        return copies.awaitAll(timeout);
    }
}
