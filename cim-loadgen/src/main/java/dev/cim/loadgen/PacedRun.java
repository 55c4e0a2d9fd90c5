package dev.cim.loadgen;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.ServerNotice;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Offers private messages between random pairs at a fixed rate (open loop) and measures the
 * <b>latency from send to receipt</b> of each. Message {@code i} is meant to leave at
 * {@code start + i / rate}; its latency is measured from that <i>intended</i> time, not from when
 * the sending thread got round to it, so a stall in the generator or the server shows as latency
 * instead of hiding as a slower send (no coordinated omission). Receipt time is read first thing
 * when the recipient decodes the frame; both are {@link System#nanoTime()} in this one JVM.
 *
 * <p>One thread paces; a message goes out on its sender's event loop. If the pacer cannot keep up,
 * it keeps sending late (the lateness counts as latency) until one second past the run, and the
 * messages never offered are reported.
 */
final class PacedRun implements Traffic {

    /**
     * @param rate       messages per second offered
     * @param offered    messages sent
     * @param notOffered messages the pacer could not send in time
     * @param latency    intended send to receipt, of every message received once
     */
    record Result(double rate, long offered, long notOffered, Percentiles latency, DeliveryLedger ledger,
            ReceiptCounts receipts) {
    }

    private final Pairs pairs;
    private final String tag;
    private final DeliveryLedger ledger = new DeliveryLedger();
    private final ReceiptCounts receipts = new ReceiptCounts();
    private final LatencyRecorder latency = new LatencyRecorder();

    /** @param tag names this run in message texts: receipts of other runs are ignored */
    PacedRun(Pairs pairs, String tag) {
        this.pairs = pairs;
        this.tag = tag;
    }

    Result run(double rate, Duration duration) {
        pairs.route(this);
        long total = Math.max(1, (long) (rate * duration.toNanos() / 1e9));
        double nanosPerMessage = 1e9 / rate;
        long start = System.nanoTime();
        long giveUp = start + duration.toNanos() + TimeUnit.SECONDS.toNanos(1);
        long sent = 0;
        while (sent < total) {
            long now = System.nanoTime();
            if (now > giveUp) {
                break;
            }
            long due = Math.min(total, (long) ((now - start) / nanosPerMessage) + 1);
            for (; sent < due; sent++) {
                long intended = start + (long) (sent * nanosPerMessage);
                pairs.send(pairs.random(), new Token(tag, ledger.issue(), intended, 0));
            }
            LockSupport.parkNanos(50_000); // pacing: the next messages are not due yet
        }
        ledger.awaitAll(Duration.ofSeconds(10));
        pairs.route(Traffic.NONE);
        return new Result(rate, sent, total - sent, latency.percentiles(), ledger, receipts);
    }

    @Override
    public void onChat(LoadClient receiver, Chat chat, long receivedNanos) {
        Token token = Token.parse(chat.getText());
        if (token != null && tag.equals(token.tag()) && ledger.receive(token.seq())) {
            latency.record(receivedNanos - token.nanos());
        }
    }

    @Override
    public void onNotice(LoadClient receiver, long requestId, ServerNotice notice) {
        receipts.notice(notice);
    }

    @Override
    public void onError(LoadClient receiver, long requestId, ErrorReply error) {
        receipts.error(error);
    }
}
