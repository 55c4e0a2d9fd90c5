package dev.cim.loadgen;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.Recipient;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Part 2, broadcast fan-out: the first user sends one message to {@code everyone}, and the time is
 * taken from just before the send until the <b>last</b> of the other online users of the pool has
 * received it (the first receipt is reported too). Rounds run one after the other, each waiting
 * for its last receipt (or a deadline, after which the missing receivers are counted).
 */
final class BroadcastPart implements Traffic {

    private static final Duration ROUND_TIMEOUT = Duration.ofSeconds(10);

    /** One broadcast in flight: its number, when it was sent, and its receipts so far. */
    private record Round(int number, long sentNanos, AtomicInteger receivers, AtomicLong firstNanos,
            AtomicLong lastNanos) {
    }

    private volatile Round round;

    static void run(List<LoadClient> clients, LoadOptions options, Report report) {
        new BroadcastPart().rounds(clients, options.broadcastRounds(), report);
    }

    private void rounds(List<LoadClient> clients, int rounds, Report report) {
        clients.forEach(client -> client.traffic(this));
        LoadClient sender = clients.get(0);
        int expected = clients.size() - 1;
        long[] last = new long[rounds];
        long[] first = new long[rounds];
        long missing = 0;
        for (int r = 0; r < rounds; r++) {
            Round current = new Round(r, System.nanoTime(), new AtomicInteger(), new AtomicLong(Long.MAX_VALUE),
                    new AtomicLong());
            round = current;
            sender.send(Recipient.EVERYONE, "b " + r);
            long deadline = current.sentNanos() + ROUND_TIMEOUT.toNanos();
            while (current.receivers().get() < expected && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200)); // polling a condition, with a deadline
            }
            missing += expected - current.receivers().get();
            // A round nobody received counts as the whole timeout, not as a negative time.
            boolean any = current.receivers().get() > 0;
            last[r] = any ? current.lastNanos().get() - current.sentNanos() : ROUND_TIMEOUT.toNanos();
            first[r] = any ? current.firstNanos().get() - current.sentNanos() : ROUND_TIMEOUT.toNanos();
        }
        clients.forEach(client -> client.traffic(Traffic.NONE));
        Percentiles lastP = Percentiles.of(last, rounds);
        Percentiles firstP = Percentiles.of(first, rounds);
        report.add(2, String.format(Locale.ROOT, "broadcast to %,d online users: send → last receipt, %d rounds",
                expected, rounds), String.format(Locale.ROOT, "**median %s ms, max %s ms**; first receipt median %s ms; "
                + "missing receipts %d", Percentiles.ms(lastP.p50()), Percentiles.ms(lastP.max()),
                Percentiles.ms(firstP.p50()), missing), "last within 50 ms");
    }

    @Override
    public void onChat(LoadClient receiver, ChatMessage chat, long receivedNanos) {
        Round current = round;
        if (current == null || !chat.text().equals("b " + current.number())) {
            return;
        }
        current.firstNanos().accumulateAndGet(receivedNanos, Math::min);
        current.lastNanos().accumulateAndGet(receivedNanos, Math::max);
        current.receivers().incrementAndGet();
    }
}
