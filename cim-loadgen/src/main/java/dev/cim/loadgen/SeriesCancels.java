package dev.cim.loadgen;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/**
 * Cancels every series a {@link SeriesLedger} holds, each by its sender ({@code CimClient.cancel}),
 * at most {@value Registrations#IN_FLIGHT} in flight, noting in the ledger when each cancel was
 * asked for and when it was acknowledged, so that no series is left firing after the run.
 *
 * <h3>A cancel refused while its series goes on</h3>
 * A cancel that reaches the server while one of the series' occurrences is being sent (claimed) is
 * refused as "no scheduled message" (sent or cancelled already), as for a one-off message that is
 * going out; but a series goes on to its next occurrence. So the senders of refused cancels list
 * their scheduled messages, and a refused series still listed is cancelled again, for at most
 * {@value #MAX_ROUNDS} rounds. The result counts both, for the report.
 */
final class SeriesCancels {

    /** Rounds of cancels, the first included: a series refused this often is left (and reported). */
    static final int MAX_ROUNDS = 5;
    private static final Duration LISTING_TIMEOUT = Duration.ofSeconds(30);

    /**
     * What cancelling took.
     *
     * @param asked        series whose cancel was asked for (every series scheduled)
     * @param cancelled    acknowledged, in any round
     * @param refused      refused in the first round
     * @param firstRefusal " (first: why)", or ""
     * @param goneOn       of those refused, still listed by their sender afterwards (the series went on)
     * @param left         still listed after the last round: never cancelled
     * @param rounds       rounds of cancels made
     * @param seconds      from the first cancel asked for to the last answer
     * @param unanswered   "" or what was not answered, for the report
     * @param latestNext   the latest next occurrence the acknowledged cancels reported, or null
     */
    record Result(long asked, long cancelled, long refused, String firstRefusal, long goneOn, long left, int rounds,
            double seconds, String unanswered, Instant latestNext) {

        /** "cancelled 200 of 200 in 0.1 s; refused 27 at first ... (first: ...)" for the report. */
        String describe() {
            String goneOnText = refused == 0 ? "" : String.format(Locale.ROOT, ", of which **%,d still scheduled "
                    + "afterwards** (the cancel met an occurrence being sent; cancelled again); never cancelled %,d",
                    goneOn, left);
            return String.format(Locale.ROOT, "cancelled %,d of %,d in %.1f s%s; refused at first %,d%s%s%s", cancelled,
                    asked, seconds, rounds > 1 ? " (" + rounds + " rounds)" : "", refused, firstRefusal, goneOnText,
                    unanswered);
        }
    }

    private final SeriesLedger ledger;
    private final IntFunction<LoadClient> senderOf;
    private final LongAdder cancelled = new LongAdder();
    private final AtomicLong latestNextMillis = new AtomicLong(Long.MIN_VALUE);

    private SeriesCancels(SeriesLedger ledger, IntFunction<LoadClient> senderOf) {
        this.ledger = ledger;
        this.senderOf = senderOf;
    }

    /**
     * Cancels every series scheduled in {@code ledger}, series {@code i} by {@code senderOf(i)}.
     */
    static Result cancelAll(SeriesLedger ledger, IntFunction<LoadClient> senderOf) throws InterruptedException {
        return new SeriesCancels(ledger, senderOf).run();
    }

    private Result run() throws InterruptedException {
        List<Integer> pending = new ArrayList<>();
        for (int i = 0; i < ledger.size(); i++) {
            if (ledger.id(i) != null) {
                pending.add(i);
            }
        }
        long asked = pending.size();
        long refused = 0;
        long goneOn = 0;
        String firstRefusal = "";
        StringBuilder unanswered = new StringBuilder();
        long first = System.nanoTime();
        long last = first;
        int rounds = 0;
        while (!pending.isEmpty() && rounds < MAX_ROUNDS) {
            rounds++;
            Queue<Integer> refusedNow = new ConcurrentLinkedQueue<>();
            Registrations round = cancel(pending, refusedNow);
            unanswered.append(round.awaitAll());
            last = round.lastAnswerNanos();
            if (rounds == 1) {
                refused = refusedNow.size();
                firstRefusal = round.firstFailure();
            }
            pending = stillListed(new ArrayList<>(refusedNow));
            if (rounds == 1) {
                goneOn = pending.size();
            }
        }
        long latest = latestNextMillis.get();
        return new Result(asked, cancelled.sum(), refused, firstRefusal, goneOn, pending.size(), rounds,
                (last - first) / 1e9, unanswered.toString(), latest == Long.MIN_VALUE ? null
                        : Instant.ofEpochMilli(latest));
    }

    private Registrations cancel(List<Integer> series, Queue<Integer> refused) throws InterruptedException {
        Registrations round = new Registrations(series.size());
        for (int i : series) {
            round.issue();
            ledger.cancelAsked(i, Instant.now());
            senderOf.apply(i).client().cancel(ledger.id(i)).whenComplete((m, failure) -> {
                if (failure == null) {
                    ledger.cancelled(i, Instant.now());
                    latestNextMillis.accumulateAndGet(m.dueAt().toEpochMilli(), Math::max);
                    cancelled.increment();
                } else {
                    refused.add(i);
                }
                round.done(failure);
            });
        }
        return round;
    }

    /** Those of {@code series} their senders still list as scheduled (one listing per sender). */
    private List<Integer> stillListed(List<Integer> series) throws InterruptedException {
        Map<LoadClient, List<Integer>> bySender = new LinkedHashMap<>();
        series.forEach(i -> bySender.computeIfAbsent(senderOf.apply(i), s -> new ArrayList<>()).add(i));
        List<Integer> listed = new ArrayList<>();
        for (Map.Entry<LoadClient, List<Integer>> entry : bySender.entrySet()) {
            Set<String> ids = new HashSet<>();
            try {
                entry.getKey().client().scheduled().get(LISTING_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                        .forEach(m -> ids.add(m.id()));
            } catch (ExecutionException | TimeoutException e) {
                listed.addAll(entry.getValue()); // not known to be gone: asked again
                continue;
            }
            entry.getValue().stream().filter(i -> ids.contains(ledger.id(i))).forEach(listed::add);
        }
        return listed;
    }
}
