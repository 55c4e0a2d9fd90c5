package dev.cim.loadgen;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.Recipient;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Part 2, broadcast fan-out: the first user sends one message to {@code everyone}, and the time is
 * taken from just before the send until the <b>last</b> of the other online users of the pool has
 * received it (the first receipt is reported too). Rounds run one after the other
 * ({@link FanOutRounds}), each waiting for its last receipt (or a deadline, after which the missing
 * receivers are counted).
 */
final class BroadcastPart implements Traffic {

    private static final Duration ROUND_TIMEOUT = Duration.ofSeconds(10);
    private static final String PREFIX = "b ";

    private final FanOutRounds rounds = new FanOutRounds(ROUND_TIMEOUT);

    static void run(List<LoadClient> clients, LoadOptions options, Report report) {
        new BroadcastPart().rounds(clients, options.broadcastRounds(), report);
    }

    private void rounds(List<LoadClient> clients, int count, Report report) {
        clients.forEach(client -> client.traffic(this));
        LoadClient sender = clients.get(0);
        int expected = clients.size() - 1;
        FanOutRounds.Result result = rounds.run(count, expected, r -> sender.send(Recipient.EVERYONE, PREFIX + r));
        clients.forEach(client -> client.traffic(Traffic.NONE));
        report.add(2, String.format(Locale.ROOT, "broadcast to %,d online users: send → last receipt, %d rounds",
                expected, count), String.format(Locale.ROOT, "**median %s ms, max %s ms**; first receipt median %s ms; "
                + "missing receipts %d", Percentiles.ms(result.last().p50()), Percentiles.ms(result.last().max()),
                Percentiles.ms(result.first().p50()), result.missing()), "last within 50 ms");
    }

    @Override
    public void onChat(LoadClient receiver, ChatMessage chat, long receivedNanos) {
        String text = chat.text();
        if (!text.startsWith(PREFIX)) {
            return;
        }
        try {
            rounds.received(Long.parseLong(text.substring(PREFIX.length())), receivedNanos);
        } catch (NumberFormatException e) {
            // not a broadcast of this part
        }
    }
}
