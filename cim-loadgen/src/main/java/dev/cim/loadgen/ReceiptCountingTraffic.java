package dev.cim.loadgen;

import dev.cim.client.core.SendReceipt;

/**
 * A measurement's {@link Traffic} that counts the server's receipts and refusals (or a peer
 * server's acknowledgements) for the messages it sent; only what it does with chats is its own.
 */
abstract class ReceiptCountingTraffic implements Traffic {

    /** The receipts and errors of this measurement's messages. */
    protected final ReceiptCounts receipts = new ReceiptCounts();

    @Override
    public final void onReceipt(LoadClient sender, SendReceipt receipt) {
        receipts.receipt(receipt);
    }

    @Override
    public final void onAccepted(ChatUser sender) {
        receipts.accept();
    }

    @Override
    public final void onFailure(ChatUser sender, Throwable failure) {
        receipts.failure(failure);
    }
}
