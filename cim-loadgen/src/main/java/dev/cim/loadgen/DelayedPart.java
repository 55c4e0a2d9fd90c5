package dev.cim.loadgen;

import dev.cim.common.protocol.ChatMessage;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.wheel.DelayScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * Part 4, delayed messages at scale: {@code delayed} private messages from the first
 * {@code delayedSenders} users to random other users, with delays spread uniformly so that all
 * fall due within one {@code delayedWindow} (starting one second after scheduling). As the real
 * client does, each waits on a {@link DelayScheduler} in the generator and is sent when due, as a
 * chat with {@code Chat.Delay}.
 *
 * <p><b>Lateness</b> is receipt time minus due time, both {@link System#nanoTime()} here (due =
 * nanoTime at scheduling + delay): the wheel's own lateness plus the trip through the server. The
 * wheel's share (send time minus due time) is reported too, so a late receipt can be blamed.
 * Every message has a sequence number, so <b>lost</b> and <b>duplicated</b> are exact.
 */
final class DelayedPart extends ReceiptCountingTraffic {

    private static final String TAG = "d";
    private static final Duration LEAD = Duration.ofSeconds(1);

    private final DeliveryLedger ledger;
    private final LatencyRecorder lateness;
    private final LatencyRecorder wheelLateness;
    private final LongAdder withoutDelay = new LongAdder();

    private DelayedPart(int messages) {
        ledger = new DeliveryLedger(messages);
        lateness = new LatencyRecorder(messages);
        wheelLateness = new LatencyRecorder(messages);
    }

    static void run(List<LoadClient> clients, LoadOptions options, Report report) throws InterruptedException {
        new DelayedPart(options.delayed()).schedule(clients, options, report);
    }

    private void schedule(List<LoadClient> clients, LoadOptions options, Report report) throws InterruptedException {
        Pairs pairs = new Pairs(clients);
        pairs.route(this);
        DelayScheduler wheel = DelayScheduler.builder().tick(options.tick()).threadNamePrefix("loadgen-wheel").build();
        try {
            long windowNanos = options.delayedWindow().toNanos();
            for (int i = 0; i < options.delayed(); i++) {
                LoadClient sender = clients.get(i % options.delayedSenders());
                long delayNanos = LEAD.toNanos() + ThreadLocalRandom.current().nextLong(windowNanos);
                long dueNanos = System.nanoTime() + delayNanos;
                Instant dueAt = Instant.now().plusNanos(delayNanos);
                long seq = ledger.issue();
                wheel.schedule(() -> send(pairs, sender, seq, dueNanos, delayNanos, dueAt), Duration.ofNanos(delayNanos));
            }
            Duration wait = LEAD.plus(options.delayedWindow()).plus(Duration.ofSeconds(10));
            ledger.awaitAll(wait);
        } finally {
            wheel.stopNow();
            pairs.route(Traffic.NONE);
        }
        report.add(4, String.format(Locale.ROOT, "delayed msgs: %,d from %,d senders due within %ss, wheel tick %s ms: "
                        + "lateness receipt − due", options.delayed(), options.delayedSenders(),
                        options.delayedWindow().toMillis() / 1000.0, options.tick().toMillis()),
                "**" + lateness.percentiles().toMillisShort() + "**", "p99 ≤ tick + 50 ms");
        report.add(4, "delayed msgs: wheel's share (send − due); accounting",
                wheelLateness.percentiles().toMillisShort() + "; " + ThroughputPart.accounting(ledger, receipts)
                        + (withoutDelay.sum() > 0 ? "; received without Chat.Delay " + withoutDelay.sum() : ""),
                "0 lost, 0 duplicated");
    }

    /** Runs on a wheel worker when the message is due. */
    private void send(Pairs pairs, LoadClient sender, long seq, long dueNanos, long delayNanos, Instant dueAt) {
        long now = System.nanoTime();
        String text = new Token(TAG, seq, dueNanos, now).text();
        ChatMessage.Delay delay = new ChatMessage.Delay(Duration.ofNanos(Math.max(1_000_000, delayNanos)), dueAt);
        sender.send(Envelopes.chat(seq, ChatMessage.outgoingDelayed(pairs.recipientFor(sender).user(), text, delay)));
    }

    @Override
    public void onChat(LoadClient receiver, Chat chat, long receivedNanos) {
        Token token = Token.parse(chat.getText());
        if (token == null || !TAG.equals(token.tag()) || !ledger.receive(token.seq())) {
            return;
        }
        lateness.record(receivedNanos - token.nanos());
        wheelLateness.record(token.extra() - token.nanos());
        if (!chat.hasDelay()) {
            withoutDelay.increment();
        }
    }
}
