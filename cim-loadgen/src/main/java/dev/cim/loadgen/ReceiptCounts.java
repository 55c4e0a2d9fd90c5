package dev.cim.loadgen;

import dev.cim.client.core.SendReceipt;
import java.util.concurrent.atomic.LongAdder;

/**
 * The server's answers to the messages of one measurement: {@code DELIVERED} means every session of
 * the recipient acknowledged the message; {@code STORED} that some session had not (it waits in the
 * inbox: with every recipient logged in and reading, that should not happen); {@code POSTED} that a
 * message to a group is in the group's log; a failure means it was refused. A peer server's
 * acknowledgement (an MQTT broker's PUBACK at QoS 1, an XMPP server's stream-management ack of
 * XEP-0198) is counted apart, as <b>accepted</b>: the server has the message, which says nothing yet
 * of its recipient, so it is none of cim's outcomes.
 */
final class ReceiptCounts {

    private final LongAdder delivered = new LongAdder();
    private final LongAdder stored = new LongAdder();
    private final LongAdder earlier = new LongAdder();
    private final LongAdder posted = new LongAdder();
    private final LongAdder accepted = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private volatile String firstFailure = "";

    void receipt(SendReceipt receipt) {
        switch (receipt.outcome()) {
            case DELIVERED -> delivered.increment();
            case STORED -> stored.increment();
            case HANDLED_EARLIER -> earlier.increment();
            case POSTED -> posted.increment();
        }
    }

    /** A peer server took a message on. */
    void accept() {
        accepted.increment();
    }

    /** Messages a peer server took on. */
    long accepted() {
        return accepted.sum();
    }

    void failure(Throwable failure) {
        failures.increment();
        if (firstFailure.isEmpty()) {
            Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
            firstFailure = cause.getMessage() == null ? cause.toString() : cause.getMessage();
        }
    }

    /** Messages answered, one way or another. */
    long answered() {
        return delivered.sum() + stored.sum() + earlier.sum() + posted.sum() + accepted.sum() + failures.sum();
    }

    /** Messages refused, or that could not be sent. */
    long refused() {
        return failures.sum();
    }

    @Override
    public String toString() {
        return "receipts: " + delivered.sum() + " delivered, " + stored.sum() + " stored, " + failures.sum()
                + " refused" + (posted.sum() > 0 ? ", " + posted.sum() + " posted" : "")
                + (earlier.sum() > 0 ? ", " + earlier.sum() + " handled earlier" : "")
                + (accepted.sum() > 0 ? ", " + accepted.sum() + " accepted by the server (PUBACK or XEP-0198 ack)" : "")
                + (firstFailure.isEmpty() ? "" : " (first: " + firstFailure + ")");
    }
}
