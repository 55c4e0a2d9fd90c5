package dev.cim.loadgen;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.When;
import dev.cim.common.schedule.Recurrence;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Part 4, last: recurring messages (issue 28). {@code series} series, each
 * {@link When#every(String) When.every(seriesRule)}, series {@code i} from sender
 * {@code i mod delayedSenders} (so several each) to receiver {@code i mod delayedReceivers}, every
 * one of these users logged in throughout: each sender's client fires its own series' occurrences
 * from its delay wheel, as a connected client does. Each series' text is a {@link Token} with its
 * number, {@value #TEXT_LENGTH} characters.
 * <ol>
 *   <li><b>registration</b>: at most {@value Registrations#IN_FLIGHT} requests in flight; the rate
 *       (first request → last acknowledgement), and Redis' {@code used_memory} before and after
 *       (each once it held still), per series;</li>
 *   <li><b>firing</b>, for {@code seriesDuration} after the last acknowledgement. Each occurrence's
 *       <b>lateness</b> is its receipt time less its {@link ChatMessage.Delay#dueAt()}, on this
 *       machine's clock (the server's too); a receipt before it is <b>early</b>. Duplicated,
 *       misnumbered, missed and lost occurrences are the {@link SeriesLedger}'s, by chat id
 *       ({@code <id>.<occurrence>}); lost counts the occurrences due at least {@value #LOST_MARGIN_MS}
 *       ms before their series' cancel was asked for;</li>
 *   <li><b>cancel</b>: each sender cancels its series ({@link SeriesCancels}), so that a long run
 *       leaves none firing; the part then waits until the latest next occurrence the cancels
 *       reported has passed (plus {@value #QUIET_MARGIN_MS} ms, at most {@code seriesDuration}) and
 *       counts the series that fired an occurrence due after their cancel was acknowledged.</li>
 * </ol>
 * The senders have no time zone set, so a calendar rule reads the server's UTC.
 */
final class SeriesPhase implements Traffic {

    static final int TEXT_LENGTH = 50;
    static final long LOST_MARGIN_MS = 1000;
    static final long QUIET_MARGIN_MS = 2000;
    private static final Duration LOGINS = Duration.ofMinutes(5);
    /** Redis' memory is read once it has held still for QUIET, or after SETTLE at most. */
    private static final Duration QUIET = Duration.ofSeconds(1);
    private static final Duration SETTLE = Duration.ofSeconds(15);
    private static final String TAG = "e";
    private static final String TARGET = "set from the first run";

    private final SeriesLedger ledger;
    private final LatencyRecorder lateness = new LatencyRecorder();
    private final LongAdder early = new LongAdder();
    private final LongAdder firedByServer = new LongAdder();
    private final LongAdder notOccurrences = new LongAdder();

    private SeriesPhase(int count) {
        ledger = new SeriesLedger(count);
    }

    /** @param redis the server's embedded Redis, or null when it is not the generator's child */
    static void run(Dialer dialer, RedisProbe redis, LoadOptions options, String prefix, Report report)
            throws InterruptedException {
        int count = options.series();
        if (count == 0) {
            return;
        }
        SeriesPhase phase = new SeriesPhase(count);
        try (ClientPool pool = dialer.pool()) {
            Opened<LoadClient> senders = pool.open(prefix + "es", options.delayedSenders(), LOGINS);
            Opened<LoadClient> receivers = pool.open(prefix + "er", options.delayedReceivers(), LOGINS, phase);
            if (senders.clients().size() < options.delayedSenders()
                    || receivers.clients().size() < options.delayedReceivers()) {
                report.add(4, "series", "skipped: not every sender and receiver logged in: " + senders.firstFailure()
                        + receivers.firstFailure(), "");
                return;
            }
            phase.measure(senders.clients(), receivers.clients(), redis, options, report);
            report.note("part 4 series pool connections: " + pool.counters());
        }
    }

    private void measure(List<LoadClient> senders, List<LoadClient> receivers, RedisProbe redis, LoadOptions options,
            Report report) throws InterruptedException {
        int count = options.series();
        Recurrence rule = options.seriesRule();
        System.err.printf(Locale.ROOT, "cim-loadgen: part 4: %,d series %s, firing for %d s%n", count, rule.describe(),
                options.seriesDuration().toSeconds());
        long memoryBefore = redis != null ? redis.settledUsedMemory(QUIET, SETTLE) : -1;
        Registrations registrations = new Registrations(count);
        AtomicLong firstDue = new AtomicLong(Long.MAX_VALUE);
        long first = System.nanoTime();
        for (int i = 0; i < count; i++) {
            int series = i;
            LoadClient sender = senders.get(i % senders.size());
            LoadClient receiver = receivers.get(i % receivers.size());
            String text = new Token(TAG, i, 0, 0).text(TEXT_LENGTH);
            registrations.issue();
            sender.client().schedule(receiver.recipient(), text, When.every(rule.spec())).whenComplete((m, failure) -> {
                if (failure == null) {
                    ledger.scheduled(series, m.id(), m.dueAt());
                    firstDue.accumulateAndGet(m.dueAt().toEpochMilli(), Math::min);
                }
                registrations.done(failure);
            });
        }
        String unanswered = registrations.awaitAll();
        long registered = registrations.lastAnswerNanos();
        double seconds = (registered - first) / 1e9;
        long memoryAfter = redis != null ? redis.settledUsedMemory(QUIET, SETTLE) : -1;
        boolean readLate = System.currentTimeMillis() >= firstDue.get();
        int perSender = (count + senders.size() - 1) / senders.size();
        report.add(4, String.format(Locale.ROOT, "series: %,d recurring msgs of %d chars, %s (every \"%s\"), from "
                + "%,d senders (up to %,d each) to %,d receivers, all online; first request → last acknowledgement",
                count, TEXT_LENGTH, rule.describe(), rule.spec(), senders.size(), perSender, receivers.size()),
                String.format(Locale.ROOT, "%,.0f series/s (%.1f s); refused %,d%s%s", (count - registrations.refused())
                        / seconds, seconds, registrations.refused(), registrations.firstFailure(), unanswered), "");

        TimeUnit.NANOSECONDS.sleep(Math.max(0, registered + options.seriesDuration().toNanos() - System.nanoTime()));
        SeriesCancels.Result cancels = SeriesCancels.cancelAll(ledger, i -> senders.get(i % senders.size()));
        Instant now = Instant.now();
        Instant quietUntil = cancels.latestNext() == null ? now : Collections.min(List.of(
                cancels.latestNext().plusMillis(QUIET_MARGIN_MS), now.plus(options.seriesDuration())));
        System.err.printf(Locale.ROOT, "cim-loadgen: part 4: %,d series cancelled; watching for %.1f s more%n",
                cancels.cancelled(), Math.max(0, Duration.between(now, quietUntil).toMillis()) / 1000.0);
        TimeUnit.MILLISECONDS.sleep(Math.max(0, Duration.between(Instant.now(), quietUntil).toMillis()));
        long memoryEnd = redis != null ? redis.settledUsedMemory(QUIET, SETTLE) : -1;

        report.add(4, String.format(Locale.ROOT, "series: Redis used_memory before → after registering them (each "
                + "reading once it held still for %d s), per series; after the run and the cancels", QUIET.toSeconds()),
                redis == null ? "not read (not the generator's child server)"
                        : new MemoryGrowth(memoryBefore, memoryAfter).per(ledger.scheduled(), "series")
                        + (readLate ? " (read after the first occurrences were due)" : "") + "; after: "
                        + MemoryGrowth.mib(memoryEnd), TARGET);
        report.add(4, String.format(Locale.ROOT, "series: lateness of each occurrence, receipt − its delay().dueAt(), "
                + "over %d s of firing", options.seriesDuration().toSeconds()), String.format(Locale.ROOT,
                "**%s**; fired by the server %,d", lateness.percentiles().toMillisShort(), firedByServer.sum()),
                TARGET);
        long lost = ledger.lost(rule, ZoneOffset.UTC, Duration.ofMillis(LOST_MARGIN_MS));
        report.add(4, "series: accounting, by chat id <id>.<occurrence>", String.format(Locale.ROOT,
                "**early %,d, duplicated %,d, lost %,d**; missed %,d (the sum of delay().missed()); misnumbered "
                + "%,d%s%s",
                early.sum(), ledger.duplicates(), lost, ledger.missed(), ledger.misnumbered(),
                ledger.unknown() > 0 ? "; of unknown series " + ledger.unknown() : "",
                notOccurrences.sum() > 0 ? "; not marked as occurrences " + notOccurrences.sum() : ""),
                "0 early, 0 duplicated, 0 lost");
        report.add(4, "series: each cancelled by its sender at the end (CimClient.cancel; a refused one still "
                + "listed, again); then watched until after the next occurrence the cancels reported",
                String.format(Locale.ROOT, "%s; **series with an occurrence due after their cancel: %,d**",
                        cancels.describe(), ledger.firedAfterCancel()), "none after the cancel");
    }

    @Override
    public void onChat(LoadClient receiver, ChatMessage chat, long receivedNanos) {
        Instant now = Instant.now();
        Token token = Token.parse(chat.text());
        if (token == null || !TAG.equals(token.tag())) {
            return;
        }
        ChatMessage.Delay delay = chat.delay();
        if (delay == null || delay.occurrence() < 1) {
            notOccurrences.increment();
            return;
        }
        if (!ledger.receive(token.seq(), chat.id(), delay.occurrence(), delay.missed(), delay.dueAt())) {
            return;
        }
        long late = Duration.between(delay.dueAt(), now).toNanos();
        if (late < 0) {
            early.increment();
        }
        lateness.record(late);
        if (delay.firedByServer()) {
            firedByServer.increment();
        }
    }
}
