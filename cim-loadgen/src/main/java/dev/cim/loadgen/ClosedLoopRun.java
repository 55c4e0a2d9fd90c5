package dev.cim.loadgen;

import dev.cim.client.core.ChatMessage;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Finds the rate the server sustains: a closed loop that keeps {@code window} private messages in
 * flight. Each receipt of one (by its recipient) immediately sends a new one from that recipient to
 * a random other user, so the rate is whatever the whole path (client write, server routing, client
 * read) completes, and it cannot overrun the server. Raising the window until the rate stops
 * growing finds the peak.
 *
 * <p>The <b>rate</b> counts only messages received, once each, within the measured interval (after
 * a warm-up for the JIT); afterwards sending stops and every message still in flight is awaited, so
 * <b>lost</b> is exactly the messages sent and never received.
 */
final class ClosedLoopRun extends ReceiptCountingTraffic {

    /**
     * @param perSecond messages received per second in the measured interval
     * @param counted   messages received in the measured interval
     */
    record Result(double perSecond, long counted, DeliveryLedger ledger, ReceiptCounts receipts, String cpu) {
    }

    /** Numbers the closed loops of this process, for their tags. */
    private static final AtomicInteger LOOPS = new AtomicInteger();

    /** This loop's own: a message of an earlier loop (a warm-up's) or of an earlier run is not its. */
    private final String tag = Token.ofThisRun("c" + LOOPS.incrementAndGet());

    private final Pairs pairs;
    /** Room for some minutes at the rates seen here; it grows if need be. */
    private final DeliveryLedger ledger = new DeliveryLedger(1 << 24);
    private final LongAdder counted = new LongAdder();
    private volatile boolean running;
    private volatile long measureFrom = Long.MAX_VALUE;
    private volatile long measureTo = Long.MIN_VALUE;

    ClosedLoopRun(Pairs pairs) {
        this.pairs = pairs;
    }

    Result run(int window, Duration warmup, Duration duration, CpuMeter cpu) throws InterruptedException {
        pairs.route(this);
        long start = System.nanoTime();
        measureFrom = start + warmup.toNanos();
        measureTo = measureFrom + duration.toNanos();
        running = true;
        for (int i = 0; i < window; i++) {
            sendFrom(pairs.random());
        }
        // The loop runs itself on the event loops; this thread only waits out the run's length.
        TimeUnit.NANOSECONDS.sleep(Math.max(0, measureFrom - System.nanoTime()));
        CpuMeter.Reading cpuFrom = cpu.read();
        TimeUnit.NANOSECONDS.sleep(Math.max(0, measureTo - System.nanoTime()));
        CpuMeter.Reading cpuTo = cpu.read();
        running = false;
        ledger.awaitAll(Duration.ofSeconds(10));
        pairs.route(Traffic.NONE);
        return new Result(counted.sum() / (duration.toNanos() / 1e9), counted.sum(), ledger, receipts,
                CpuMeter.perMessage(cpuFrom, cpuTo, counted.sum()));
    }

    private void sendFrom(ChatUser sender) {
        long seq = ledger.issue();
        pairs.send(sender, new Token(tag, seq, System.nanoTime(), 0));
    }

    @Override
    public void onChat(LoadClient receiver, ChatMessage chat, long receivedNanos) {
        onText(receiver, chat.text(), receivedNanos);
    }

    @Override
    public void onText(ChatUser receiver, String text, long receivedNanos) {
        Token token = Token.parse(text);
        if (token == null || !tag.equals(token.tag()) || !ledger.receive(token.seq())) {
            return;
        }
        if (receivedNanos >= measureFrom && receivedNanos < measureTo) {
            counted.increment();
        }
        if (running) {
            sendFrom(receiver);
        }
    }
}
