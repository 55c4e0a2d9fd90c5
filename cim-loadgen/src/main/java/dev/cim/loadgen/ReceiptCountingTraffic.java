package dev.cim.loadgen;

import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.ServerNotice;

/**
 * A measurement's {@link Traffic} that counts the server's receipts and errors for the messages it
 * sent; only what it does with chats is its own.
 */
abstract class ReceiptCountingTraffic implements Traffic {

    /** The receipts and errors of this measurement's messages. */
    protected final ReceiptCounts receipts = new ReceiptCounts();

    @Override
    public final void onNotice(LoadClient receiver, long requestId, ServerNotice notice) {
        receipts.notice(notice);
    }

    @Override
    public final void onError(LoadClient receiver, long requestId, ErrorReply error) {
        receipts.error(error);
    }
}
