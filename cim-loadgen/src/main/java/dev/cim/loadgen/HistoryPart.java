package dev.cim.loadgen;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.HistoryPage;
import dev.cim.client.core.SearchResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * Part 5, second half: history and search (issue 26), each on users of its own.
 *
 * <h3>A page of history</h3>
 * One private conversation is filled with {@code historyMessages} messages ({@link ConversationFill},
 * {@value #FILL_WINDOW} in flight), and the part waits until its history shows the last one (the
 * server writes it behind the delivery). It then pages back through all of it, {@value #MAX_PAGE} at
 * a time, counting what the history holds and keeping each page's oldest position; then times
 * {@value #PAGE_REQUESTS} requests for the {@value #PAGE} messages before a position picked at
 * random among those (a random depth), one at a time.
 *
 * <h3>A search</h3>
 * {@value #SEARCH_CONVERSATIONS} users each fill a conversation with the searcher, in parallel,
 * {@code searchMessages} messages in all, numbered across the conversations; {@value #SEARCH_HITS}
 * of them, spread evenly (1 in 10,000 of 100,000), hold the word {@value #RARE_WORD}, the others
 * common words only. Once all are in the history, {@value #SEARCHES} searches for the word over all
 * of the searcher's conversations, each a first page, run one at a time. Reported: their time, the
 * hits found against those expected (the rare messages sent at or after where the search says it
 * searched back to), and how far back that was against the first message's time.
 */
final class HistoryPart implements Traffic {

    /** Messages of the conversations searched, at least: some in each, and room for the rare ones. */
    static final int MIN_SEARCH_MESSAGES = 100;
    static final int SEARCH_CONVERSATIONS = 10;
    static final int SEARCH_HITS = 10;
    static final String RARE_WORD = "quokka";
    static final int PAGE = 50;
    static final int PAGE_REQUESTS = 200;
    static final int SEARCHES = 20;
    /** The server's largest page. */
    private static final int MAX_PAGE = 200;
    /** The server's most hits per page: the search is not cut short by them. */
    private static final int MAX_HITS = 100;
    /** Messages in flight while filling, over all conversations filled at once. */
    private static final int FILL_WINDOW = 1000;
    private static final int TEXT_LENGTH = 50;
    private static final Duration LOGINS = Duration.ofMinutes(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration HISTORY_TIMEOUT = Duration.ofMinutes(2);
    private static final String TARGET = "(set from first run)";

    /** Send times of the messages holding the rare word, as the searcher received them. */
    private final Queue<Instant> rareSentAt = new ConcurrentLinkedQueue<>();
    private final AtomicLong firstSentMillis = new AtomicLong(Long.MAX_VALUE);

    private HistoryPart() {
    }

    static void run(Dialer dialer, LoadOptions options, String prefix, Report report) throws InterruptedException {
        HistoryPart part = new HistoryPart();
        try (ClientPool pool = dialer.pool()) {
            Opened<LoadClient> pair = pool.open(prefix + "h", 2, LOGINS);
            Opened<LoadClient> searchers = pool.open(prefix + "q", 1 + SEARCH_CONVERSATIONS, LOGINS, part);
            if (pair.clients().size() < 2 || searchers.clients().size() < 1 + SEARCH_CONVERSATIONS) {
                report.add(5, "history and search", "skipped: not every user logged in: " + pair.firstFailure()
                        + searchers.firstFailure(), "");
                return;
            }
            part.history(pair.clients().get(0), pair.clients().get(1), options.historyMessages(), report);
            part.search(searchers.clients(), options.searchMessages(), report);
            report.note("part 5 history pool connections: " + pool.counters());
        }
    }

    // A page of history.

    private void history(LoadClient reader, LoadClient other, int count, Report report) throws InterruptedException {
        String conversation = "@" + other.user();
        System.err.printf(Locale.ROOT, "cim-loadgen: part 5: a conversation of %,d messages%n", count);
        ConversationFill.Result filled = fill(List.of(reader), other, count,
                i -> new Token("h", i, System.nanoTime(), 0).text(TEXT_LENGTH));
        if (filled == null) {
            report.add(5, "history: fill", "not all answered within " + fillTimeout(count), "");
            return;
        }
        Duration behind = ConversationFill.awaitInHistory(reader, conversation, filled.lastText(), HISTORY_TIMEOUT);
        List<String> positions = pageBack(reader, conversation, count, filled, behind, report);
        randomPages(reader, conversation, count, positions, report);
    }

    /**
     * Pages back through the whole conversation, {@value #MAX_PAGE} at a time, and reports the fill
     * with what the history holds.
     *
     * @return the position of every page's oldest message but the last page's: a place to read before
     *         every {@value #MAX_PAGE} messages
     */
    private static List<String> pageBack(LoadClient reader, String conversation, int count,
            ConversationFill.Result filled, Duration behind, Report report) throws InterruptedException {
        List<String> positions = new ArrayList<>();
        LatencyRecorder paging = new LatencyRecorder();
        long held = 0;
        String before = "";
        long start = System.nanoTime();
        String failure = "";
        // Pages enough for every message: a history that said "more" for ever would not hold the run.
        for (long pagesLeft = count / MAX_PAGE + 10; pagesLeft > 0; pagesLeft--) {
            long asked = System.nanoTime();
            HistoryPage page;
            try {
                page = reader.client().history().before(conversation, before, MAX_PAGE)
                        .get(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                failure = "; paging stopped: " + (e.getCause() != null ? e.getCause().getMessage() : e.toString());
                break;
            }
            paging.record(System.nanoTime() - asked);
            held += page.entries().size();
            if (page.entries().isEmpty() || !page.more()) {
                break;
            }
            before = page.oldest();
            positions.add(before);
        }
        double pagingSeconds = (System.nanoTime() - start) / 1e9;
        report.add(5, String.format(Locale.ROOT, "history: one private conversation filled with %,d msgs of %d chars "
                + "(%,d in flight, each receipt sending the next); then paged back %d at a time", count, TEXT_LENGTH,
                FILL_WINDOW, MAX_PAGE), String.format(Locale.ROOT, "fill **%,.0f msgs/s** (%.1f s; %s); the last in "
                + "the history %s after its receipt; **the history holds %,d of %,d**; paging: %,d pages in %.1f s, "
                + "%s%s", filled.perSecond(), filled.elapsed().toMillis() / 1000.0, filled.receipts(), behind == null
                ? "**not within " + HISTORY_TIMEOUT.toSeconds() + " s**" : behind.toMillis() + " ms", held, count,
                paging.percentiles().count(), pagingSeconds, paging.percentiles().toMillisShort(), failure), "");
        return positions;
    }

    /** Times {@value #PAGE_REQUESTS} pages of {@value #PAGE} before positions picked at random, one at a time. */
    private static void randomPages(LoadClient reader, String conversation, int count, List<String> positions,
            Report report) throws InterruptedException {
        if (positions.isEmpty()) {
            positions.add(""); // one page holds it all: the newest is the only place to read before
        }
        System.err.printf(Locale.ROOT, "cim-loadgen: part 5: %d pages of %d at random depths%n", PAGE_REQUESTS, PAGE);
        LatencyRecorder pages = new LatencyRecorder();
        int shortPages = 0;
        int failed = 0;
        for (int i = 0; i < PAGE_REQUESTS; i++) {
            String position = positions.get(ThreadLocalRandom.current().nextInt(positions.size()));
            long asked = System.nanoTime();
            try {
                HistoryPage page = reader.client().history().before(conversation, position, PAGE)
                        .get(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                pages.record(System.nanoTime() - asked);
                shortPages += page.entries().size() < PAGE ? 1 : 0;
            } catch (ExecutionException | TimeoutException e) {
                failed++;
            }
        }
        report.add(5, String.format(Locale.ROOT, "history: a page of %d before a random position of the %,d-message "
                + "conversation, %d requests one at a time", PAGE, count, PAGE_REQUESTS),
                String.format(Locale.ROOT, "**%s**; pages short of %d: %d; failed %d", pages.percentiles().toMillisShort(),
                        PAGE, shortPages, failed), TARGET);
    }

    /**
     * Fills a conversation from each of {@code senders} to {@code receiver}, {@code count} messages in
     * all, in parallel; message {@code g} (numbered across the conversations, sender {@code g % n}) says
     * {@code text(g)}. Returns the whole: its count, the longest fill's time, every answer, and the
     * last sender's last text; or null if not all were answered in time.
     */
    private static ConversationFill.Result fill(List<LoadClient> senders, LoadClient receiver, int count,
            IntFunction<String> text) throws InterruptedException {
        int n = senders.size();
        ReceiptCounts receipts = new ReceiptCounts();
        List<CompletableFuture<ConversationFill.Result>> fills = new ArrayList<>(n);
        for (int c = 0; c < n; c++) {
            int conversation = c;
            int share = count / n + (c < count % n ? 1 : 0);
            fills.add(ConversationFill.start(senders.get(c), receiver, share, Math.max(1, FILL_WINDOW / n),
                    j -> text.apply(j * n + conversation), receipts));
        }
        try {
            CompletableFuture.allOf(fills.toArray(CompletableFuture[]::new))
                    .get(fillTimeout(count).toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return null;
        }
        Duration longest = Duration.ZERO;
        String lastText = "";
        for (CompletableFuture<ConversationFill.Result> fill : fills) {
            ConversationFill.Result result = fill.join();
            longest = result.elapsed().compareTo(longest) > 0 ? result.elapsed() : longest;
            lastText = result.lastText();
        }
        return new ConversationFill.Result(count, longest, receipts, lastText);
    }

    /** Five minutes, and a millisecond per message: a server that stopped answering would hold the run forever. */
    private static Duration fillTimeout(int count) {
        return Duration.ofMinutes(5).plusMillis(count);
    }

    // A search.

    private void search(List<LoadClient> users, int count, Report report) throws InterruptedException {
        LoadClient searcher = users.get(0);
        List<LoadClient> partners = users.subList(1, users.size());
        int spacing = count / SEARCH_HITS;
        System.err.printf(Locale.ROOT, "cim-loadgen: part 5: %d conversations of %,d messages in all, '%s' in 1 of %,d%n",
                partners.size(), count, RARE_WORD, spacing);
        ConversationFill.Result filled = fill(partners, searcher, count, g -> searchText(g, g % spacing == spacing / 2));
        if (filled == null) {
            report.add(5, "search: fill", "not all answered within " + fillTimeout(count), "");
            return;
        }
        // The last of each conversation in its history: the g of sender c's last message.
        String missing = "";
        for (int c = 0; c < partners.size(); c++) {
            int share = count / partners.size() + (c < count % partners.size() ? 1 : 0);
            int last = (share - 1) * partners.size() + c;
            if (ConversationFill.awaitInHistory(searcher, "@" + partners.get(c).user(),
                    searchText(last, last % spacing == spacing / 2), HISTORY_TIMEOUT) == null) {
                missing += " @" + partners.get(c).user();
            }
        }
        report.add(5, String.format(Locale.ROOT, "search: %d conversations with the searcher filled in parallel, %,d "
                + "msgs in all, '%s' in %d of them (1 in %,d)", partners.size(), count, RARE_WORD, SEARCH_HITS, spacing),
                String.format(Locale.ROOT, "%,.0f msgs/s (%.1f s; %s)%s", filled.perSecond(),
                        filled.elapsed().toMillis() / 1000.0, filled.receipts(), missing.isEmpty() ? ""
                        : "; **not in the history after " + HISTORY_TIMEOUT.toSeconds() + " s:" + missing + "**"),
                "");

        System.err.printf(Locale.ROOT, "cim-loadgen: part 5: %d searches%n", SEARCHES);
        LatencyRecorder times = new LatencyRecorder();
        int fewest = Integer.MAX_VALUE;
        int most = 0;
        int wrong = 0;
        int failed = 0;
        Instant backTo = null;
        for (int i = 0; i < SEARCHES; i++) {
            long asked = System.nanoTime();
            SearchResult result;
            try {
                result = searcher.client().history().search(RARE_WORD, "", "", MAX_HITS)
                        .get(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                failed++;
                continue;
            }
            times.record(System.nanoTime() - asked);
            fewest = Math.min(fewest, result.hits().size());
            most = Math.max(most, result.hits().size());
            wrong += (int) result.hits().stream().filter(hit -> !isRare(hit.entry().message().text())).count();
            backTo = result.searchedBackTo();
        }
        Instant searchedBackTo = backTo;
        long expected = searchedBackTo == null ? 0
                : rareSentAt.stream().filter(at -> !at.isBefore(searchedBackTo)).count();
        Instant first = Instant.ofEpochMilli(firstSentMillis.get());
        String reach = searchedBackTo == null ? "no search answered"
                : !searchedBackTo.isAfter(first) ? "searched back past the first message (to " + searchedBackTo + ")"
                : String.format(Locale.ROOT, "searched back to %.3f s after the first message",
                        Duration.between(first, searchedBackTo).toMillis() / 1000.0);
        report.add(5, String.format(Locale.ROOT, "search: first page of a search for '%s' over all the searcher's "
                + "conversations (%,d msgs), %d searches one at a time", RARE_WORD, count, SEARCHES),
                String.format(Locale.ROOT, "**%s**; hits %d..%d of %d expected (%d holding the word in all)%s; %s%s",
                        times.percentiles().toMillisShort(), fewest == Integer.MAX_VALUE ? 0 : fewest, most, expected,
                        rareSentAt.size(), wrong > 0 ? "; **hits without the word: " + wrong + "**" : "", reach,
                        failed > 0 ? "; failed " + failed : ""), TARGET);
    }

    /** Message {@code g} of the searched conversations: common words, and the rare one if {@code rare}. */
    static String searchText(int g, boolean rare) {
        return g + " let us go over the weekly plan after lunch" + (rare ? " " + RARE_WORD : "");
    }

    /** True for a text of {@link #searchText} that holds the rare word. */
    static boolean isRare(String text) {
        return text.endsWith(" " + RARE_WORD);
    }

    @Override
    public void onChat(LoadClient receiver, ChatMessage chat, long receivedNanos) {
        firstSentMillis.accumulateAndGet(chat.sentAt().toEpochMilli(), Math::min);
        if (isRare(chat.text())) {
            rareSentAt.add(chat.sentAt());
        }
    }
}
