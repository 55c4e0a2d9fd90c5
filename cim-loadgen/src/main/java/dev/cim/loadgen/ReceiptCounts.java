package dev.cim.loadgen;

import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.ServerNotice;
import java.util.concurrent.atomic.LongAdder;

/**
 * The server's answers to the messages of one measurement: a message the server confirmed
 * {@code DELIVERED} reached the recipient's session; {@code STORED_OFFLINE} means the server did not
 * find the recipient online (wrong, since every recipient is logged in); an error means it refused.
 */
final class ReceiptCounts {

    private final LongAdder delivered = new LongAdder();
    private final LongAdder storedOffline = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private volatile String firstError = "";

    void notice(ServerNotice notice) {
        if (notice.getKind() == ServerNotice.Kind.DELIVERED) {
            delivered.increment();
        } else if (notice.getKind() == ServerNotice.Kind.STORED_OFFLINE) {
            storedOffline.increment();
        }
    }

    void error(ErrorReply error) {
        errors.increment();
        if (firstError.isEmpty()) {
            firstError = error.getCode() + ": " + error.getMessage();
        }
    }

    @Override
    public String toString() {
        return "receipts: " + delivered.sum() + " delivered, " + storedOffline.sum() + " stored offline, "
                + errors.sum() + " errors" + (firstError.isEmpty() ? "" : " (first: " + firstError + ")");
    }
}
