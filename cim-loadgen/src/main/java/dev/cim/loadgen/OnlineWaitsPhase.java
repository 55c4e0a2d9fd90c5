package dev.cim.loadgen;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.When;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Part 4, after {@link DelayedPart}: "when online" messages (issue 28) waiting for users who then
 * log in together.
 * <ol>
 *   <li>{@code onlineUsers} recipients log in once, so that they have accounts, and close their
 *       clients; the phase waits until the server lists none of them online ({@link Offline}).</li>
 *   <li><b>waiting</b>: {@code delayedSenders} senders schedule {@code onlineMessages} messages
 *       {@link When#online()}, message {@code i} from sender {@code i mod senders} to recipient
 *       {@code i mod onlineUsers} (so each recipient waits for as many, give or take one), at most
 *       {@value Registrations#IN_FLIGHT} requests in flight. Measured: the registration rate (first
 *       request → last acknowledgement), and Redis' {@code used_memory} before and after (each once
 *       it held still), per waiting message.</li>
 *   <li><b>logins</b>: the recipients log in again, the logins started evenly over
 *       {@code onlineLoginWindow}, at most {@value ClientPool#MAX_LOGINS_IN_FLIGHT} at a time. Measured
 *       for each message: its recipient's login (the login result, {@link LoadClient#loggedInNanos()})
 *       → its receipt; lost and duplicated, by the number in its text ({@link DeliveryLedger}); and
 *       how many came without the mark of a message that waited ({@link ChatMessage.Delay#whenOnline()}).</li>
 * </ol>
 * Every text is a {@link Token} of {@value #TEXT_LENGTH} characters, as the far-future messages'.
 */
final class OnlineWaitsPhase implements Traffic {

    static final int TEXT_LENGTH = DelayedPart.FAR_TEXT_LENGTH;
    private static final Duration LOGINS = Duration.ofMinutes(5);
    private static final Duration GO_OFFLINE = Duration.ofSeconds(30);
    /** How long after the logins missing messages are waited for. */
    private static final Duration GRACE = Duration.ofSeconds(60);
    /** Redis' memory is read once it has held still for QUIET, or after SETTLE at most. */
    private static final Duration QUIET = Duration.ofSeconds(1);
    private static final Duration SETTLE = Duration.ofSeconds(15);
    private static final String TAG = "w";
    private static final String TARGET = "set from the first run";

    private final DeliveryLedger ledger;
    private final LatencyRecorder fromLogin = new LatencyRecorder();
    private final LongAdder unmarked = new LongAdder();
    private final AtomicLong lastReceipt = new AtomicLong(Long.MIN_VALUE);

    private OnlineWaitsPhase(int expected) {
        ledger = new DeliveryLedger(expected);
    }

    /** @param redis the server's embedded Redis, or null when it is not the generator's child */
    static void run(Dialer dialer, RedisProbe redis, LoadOptions options, String prefix, Report report)
            throws InterruptedException {
        int count = options.onlineMessages();
        if (count == 0) {
            return;
        }
        OnlineWaitsPhase phase = new OnlineWaitsPhase(count);
        try (ClientPool pool = dialer.pool()) {
            Opened<LoadClient> senders = pool.open(prefix + "ws", options.delayedSenders(), LOGINS);
            Opened<LoadClient> accounts = pool.open(prefix + "wr", options.onlineUsers(), LOGINS);
            if (senders.clients().size() < options.delayedSenders()
                    || accounts.clients().size() < options.onlineUsers()) {
                report.add(4, "when online", "skipped: not every sender and recipient logged in: "
                        + senders.firstFailure() + accounts.firstFailure(), "");
                return;
            }
            String stillOnline = Offline.closeAndAwait(senders.clients().get(0), accounts.clients(), GO_OFFLINE);
            if (!stillOnline.isEmpty()) {
                report.add(4, "when online", "skipped: their messages would go at once" + stillOnline, "");
                return;
            }
            phase.measure(pool, prefix, senders.clients(), accounts.clients(), redis, options, report);
            report.note("part 4 'when online' pool connections: " + pool.counters());
        }
    }

    private void measure(ClientPool pool, String prefix, List<LoadClient> senders, List<LoadClient> recipients,
            RedisProbe redis, LoadOptions options, Report report) throws InterruptedException {
        int count = options.onlineMessages();
        System.err.printf(Locale.ROOT, "cim-loadgen: part 4: %,d 'when online' messages for %,d logged-out users%n",
                count, recipients.size());
        long memoryBefore = redis != null ? redis.settledUsedMemory(QUIET, SETTLE) : -1;
        Registrations registrations = new Registrations(count);
        long first = System.nanoTime();
        for (int i = 0; i < count; i++) {
            LoadClient sender = senders.get(i % senders.size());
            LoadClient recipient = recipients.get(i % recipients.size());
            long seq = ledger.issue();
            String text = new Token(TAG, seq, 0, 0).text(TEXT_LENGTH);
            registrations.issue();
            sender.client().schedule(recipient.recipient(), text, When.online()).whenComplete((m, failure) -> {
                if (failure != null) {
                    ledger.receive(seq); // not scheduled: not expected either
                }
                registrations.done(failure);
            });
        }
        String unanswered = registrations.awaitAll();
        double seconds = (registrations.lastAnswerNanos() - first) / 1e9;
        long memoryAfter = redis != null ? redis.settledUsedMemory(QUIET, SETTLE) : -1;
        int perUser = (count + recipients.size() - 1) / recipients.size();
        report.add(4, String.format(Locale.ROOT, "when online: %,d msgs of %d chars scheduled When.online() from %,d "
                + "senders for %,d logged-out users (up to %,d each), first request → last acknowledgement", count,
                TEXT_LENGTH, senders.size(), recipients.size(), perUser), String.format(Locale.ROOT,
                "%,.0f msgs/s (%.1f s); refused %,d%s%s", (count - registrations.refused()) / seconds, seconds,
                registrations.refused(), registrations.firstFailure(), unanswered), "");
        report.add(4, String.format(Locale.ROOT, "when online: Redis used_memory before → after scheduling them (each "
                + "reading once it held still for %d s), per waiting message", QUIET.toSeconds()),
                redis == null ? "not read (not the generator's child server)"
                        : new MemoryGrowth(memoryBefore, memoryAfter).per(count - registrations.refused(), "msg"), "");

        Duration window = options.onlineLoginWindow();
        System.err.printf(Locale.ROOT, "cim-loadgen: part 4: %,d users log in within %.1f s%n", recipients.size(),
                window.toMillis() / 1000.0);
        long loginsStart = System.nanoTime();
        Opened<LoadClient> back = pool.open(prefix + "wr", recipients.size(), LOGINS, this, window);
        long lastLogin = back.clients().stream().mapToLong(LoadClient::loggedInNanos).max().orElse(loginsStart);
        ledger.awaitAll(GRACE);
        long last = lastReceipt.get();
        report.add(4, String.format(Locale.ROOT, "when online: the %,d users log in, the logins started evenly over "
                + "%.1f s (at most %d at a time); each message, its recipient's login → its receipt",
                recipients.size(), window.toMillis() / 1000.0, ClientPool.MAX_LOGINS_IN_FLIGHT),
                String.format(Locale.ROOT, "**%s**; %,d logged in of %,d%s; from the first login's start: the "
                        + "last login %.1f s, the last message %s", fromLogin.percentiles().toMillisShort(),
                        back.clients().size(), recipients.size(),
                        back.failed() == 0 ? "" : " (first failure: " + back.firstFailure() + ")",
                        (lastLogin - loginsStart) / 1e9, last == Long.MIN_VALUE ? "none"
                                : String.format(Locale.ROOT, "%.1f s", (last - loginsStart) / 1e9)), TARGET);
        report.add(4, "when online: accounting, by the number in each text", String.format(Locale.ROOT,
                "**lost %,d, duplicated %,d**; not marked when-online %,d%s", ledger.lost(), ledger.duplicates(),
                unmarked.sum(), ledger.unknown() > 0 ? "; unknown numbers " + ledger.unknown() : ""),
                "all delivered, none twice");
    }

    @Override
    public void onChat(LoadClient receiver, ChatMessage chat, long receivedNanos) {
        Token token = Token.parse(chat.text());
        if (token == null || !TAG.equals(token.tag()) || !ledger.receive(token.seq())) {
            return;
        }
        // On the client's I/O thread, behind its login result: loggedInNanos is this login's.
        fromLogin.record(receivedNanos - receiver.loggedInNanos());
        if (chat.delay() == null || !chat.delay().whenOnline()) {
            unmarked.increment();
        }
        lastReceipt.accumulateAndGet(receivedNanos, Math::max);
    }
}
