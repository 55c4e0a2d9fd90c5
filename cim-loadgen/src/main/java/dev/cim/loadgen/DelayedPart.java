package dev.cim.loadgen;

import dev.cim.client.core.ChatMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * Part 4, scheduled messages at scale: {@code delayed} private messages from the first
 * {@code delayedSenders} users to random other users, due uniformly within one
 * {@code delayedWindow} (starting a few seconds after scheduling), scheduled through the client
 * library: registered with the server, which holds them durably and sends them at their time, and
 * held as jobs on each sender's delay wheel, which ask the server to release them.
 *
 * <p><b>Lateness</b> is receipt time minus due time, on this machine's wall clock (the due time is
 * in the message). Every message has a sequence number, so <b>lost</b> and <b>duplicated</b> are
 * exact.
 */
final class DelayedPart extends ReceiptCountingTraffic {

    private static final String TAG = "d";
    private static final Duration LEAD = Duration.ofSeconds(5);

    private final DeliveryLedger ledger;
    private final LatencyRecorder bySender = new LatencyRecorder();
    private final LatencyRecorder byServer = new LatencyRecorder();
    private final LongAdder early = new LongAdder();
    private final LongAdder scheduleFailures = new LongAdder();

    private DelayedPart(int messages) {
        ledger = new DeliveryLedger(messages);
    }

    static void run(List<LoadClient> clients, LoadOptions options, Report report) throws InterruptedException {
        new DelayedPart(options.delayed()).schedule(clients, options, report);
    }

    private void schedule(List<LoadClient> clients, LoadOptions options, Report report) throws InterruptedException {
        Pairs pairs = new Pairs(clients);
        pairs.route(this);
        long registrationStart = System.nanoTime();
        try {
            long windowMillis = options.delayedWindow().toMillis();
            Instant start = Instant.now().plus(LEAD);
            java.util.concurrent.CountDownLatch registered = new java.util.concurrent.CountDownLatch(options.delayed());
            for (int i = 0; i < options.delayed(); i++) {
                LoadClient sender = clients.get(i % options.delayedSenders());
                Instant due = start.plusMillis(ThreadLocalRandom.current().nextLong(windowMillis));
                long seq = ledger.issue();
                String text = new Token(TAG, seq, due.toEpochMilli(), 0).text();
                sender.client().schedule(pairs.recipientFor(sender).recipient(), text, due).whenComplete((m, failure) -> {
                    if (failure != null) {
                        scheduleFailures.increment();
                        ledger.receive(seq); // not scheduled: not expected either
                    }
                    registered.countDown();
                });
            }
            registered.await();
            double seconds = (System.nanoTime() - registrationStart) / 1e9;
            report.add(4, String.format(Locale.ROOT, "scheduled msgs: %,d registered from %,d senders",
                    options.delayed(), options.delayedSenders()), String.format(Locale.ROOT,
                    "%,.0f registrations/s; %d refused", options.delayed() / seconds, scheduleFailures.sum()), "");
            Duration wait = Duration.between(Instant.now(), start.plus(options.delayedWindow())).plus(Duration.ofSeconds(30));
            ledger.awaitAll(wait);
        } finally {
            pairs.route(Traffic.NONE);
        }
        report.add(4, String.format(Locale.ROOT, "scheduled msgs due within %ss: lateness receipt − due, sent by the "
                        + "sender's client", options.delayedWindow().toMillis() / 1000.0),
                "**" + bySender.percentiles().toMillisShort() + "**", "p99 ≤ tick + 50 ms");
        report.add(4, "scheduled msgs: lateness, sent by the server", byServer.percentiles().toMillisShort(),
                "p99 ≤ tick + 100 ms");
        report.add(4, "scheduled msgs: accounting", ThroughputPart.accounting(ledger, receipts)
                + "; early " + early.sum(), "0 lost, 0 duplicated, 0 early");
    }

    @Override
    public void onChat(LoadClient receiver, ChatMessage chat, long receivedNanos) {
        long now = System.currentTimeMillis();
        Token token = Token.parse(chat.text());
        if (token == null || !TAG.equals(token.tag()) || !ledger.receive(token.seq())) {
            return;
        }
        long late = now - token.nanos();
        if (late < 0) {
            early.increment();
        }
        boolean server = chat.delay() != null && chat.delay().firedByServer();
        (server ? byServer : bySender).record(Math.max(0, late) * 1_000_000);
    }
}
