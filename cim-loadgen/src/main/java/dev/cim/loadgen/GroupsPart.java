package dev.cim.loadgen;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.GroupResult;
import dev.cim.client.core.Recipient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Part 5, first half: fan-out to one group (issue 26). The group has {@code groupMembers} members,
 * all logged in: an online half, whose first member owns the group and sends, and a half that goes
 * offline later. In order:
 * <ol>
 *   <li><b>rounds</b>: the sender posts {@code groupRounds} messages one after the other
 *       ({@link FanOutRounds}): send → the last of the other members' receipts, and the first;</li>
 *   <li><b>sustained</b>: {@code groupWindow} members keep one message each in flight for
 *       {@code groupDuration}, each sending its next on its last one's {@code POSTED} receipt (a closed
 *       loop on the posts: the deliveries may lag behind them). Measured: deliveries per second summed
 *       over the members, each delivery's latency (send → receipt), and, once sending stopped and the
 *       deliveries drained, the copies lost or duplicated, by member and message number;</li>
 *   <li><b>half offline</b>: the second half closes its clients, and the sender posts
 *       {@code groupOfflineMessages} messages in rounds, each waiting for the online half. Redis'
 *       {@code used_memory} before and after (once the server lists the half offline, each reading once
 *       it held still: {@link RedisProbe#settledUsedMemory}),
 *       per message, is what a group message costs; it is set
 *       against what one inbox copy costs, measured with as many private messages to an offline user,
 *       less as many to an online one (both are written to the history; only the first to an inbox);</li>
 *   <li><b>catch-up</b>: the offline half logs in again; each member's time until it has every one of
 *       those messages (from the group's log) is taken from its login, and from the start of the
 *       logins (which are paced, {@value ClientPool#MAX_LOGINS_IN_FLIGHT} at a time). A last round to
 *       every member then shows that nothing more was on its way, and the ledger says whether each
 *       member got each message once.</li>
 * </ol>
 * Every group message carries a {@link Token} of {@value #TEXT_LENGTH} characters: its phase's tag,
 * its number in the phase's {@link GroupLedger}, and its send time.
 *
 * <p>One part of the load, whose phases share one group and its members; its length is those phases
 * and the report of what each measured.
 */
final class GroupsPart implements Traffic {

    /** The length of every text of this part, group or private: what Redis keeps of one is comparable. */
    static final int TEXT_LENGTH = 50;
    /** Private messages in flight while the inbox's cost is measured. */
    private static final int FILL_WINDOW = 200;
    private static final Duration LOGINS = Duration.ofMinutes(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration ROUND_TIMEOUT = Duration.ofSeconds(10);
    /** How long the sustained run's deliveries may take to drain once sending stopped. */
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration HISTORY_TIMEOUT = Duration.ofSeconds(60);
    /** Redis' memory is read once it has held still for QUIET, or after SETTLE at most. */
    private static final Duration QUIET = Duration.ofSeconds(1);
    private static final Duration SETTLE = Duration.ofSeconds(15);
    /** How long closed clients' users may stay listed online. */
    private static final Duration GO_OFFLINE = Duration.ofSeconds(30);
    private static final String TARGET = "(set from first run)";

    private static final String ONLINE = "ga";
    private static final String OFFLINE = "gb";
    private static final String OTHERS = "gx";

    private static final String ROUNDS = "r";
    private static final String SUSTAINED = "s";
    private static final String AWAY = "o";
    private static final String BARRIER = "z";
    private static final String INBOX = "i";

    /** The accounting of one phase's messages: its ledger, and what its measurement reads of them. */
    private static final class Phase {
        final String tag;
        final GroupLedger ledger;
        final FanOutRounds rounds = new FanOutRounds(ROUND_TIMEOUT);
        final LatencyRecorder latency = new LatencyRecorder();
        final ReceiptCounts receipts = new ReceiptCounts();
        /** First receipts between {@link #countFrom} and {@link #countTo}. */
        final LongAdder counted = new LongAdder();
        final AtomicLong lastReceipt = new AtomicLong(Long.MIN_VALUE);
        /** When each member had received {@link #completeAt} copies, or 0. */
        final AtomicLongArray completedNanos;
        volatile long countFrom = Long.MAX_VALUE;
        volatile long countTo = Long.MIN_VALUE;
        volatile int completeAt = Integer.MAX_VALUE;

        Phase(String tag, int members, int expectedMessages) {
            this.tag = tag;
            this.ledger = new GroupLedger(members, expectedMessages);
            this.completedNanos = new AtomicLongArray(members);
        }

        /** Member {@code slot} received {@code token}'s message. */
        void received(int slot, Token token, long receivedNanos) {
            if (!ledger.receive(token.seq(), slot)) {
                return;
            }
            rounds.received(token.seq(), receivedNanos);
            latency.record(receivedNanos - token.nanos());
            if (receivedNanos - countFrom >= 0 && receivedNanos - countTo < 0) {
                counted.increment();
            }
            lastReceipt.accumulateAndGet(receivedNanos, Math::max);
            if (ledger.receivedBy(slot) == completeAt) {
                completedNanos.set(slot, receivedNanos);
            }
        }
    }

    private final String groupName;
    private final Recipient group;
    private final int onlineCount;
    private final int offlineCount;
    /** Member user → slot: the online half 0.., then the offline half. */
    private final Map<String, Integer> slots;
    private final Map<String, Phase> phases = new ConcurrentHashMap<>();
    private volatile boolean running;

    private GroupsPart(String prefix, int onlineCount, int offlineCount) {
        this.groupName = prefix + "team";
        this.group = Recipient.group(groupName);
        this.onlineCount = onlineCount;
        this.offlineCount = offlineCount;
        Map<String, Integer> slots = new HashMap<>();
        for (int i = 0; i < onlineCount; i++) {
            slots.put(prefix + ONLINE + i, i);
        }
        for (int i = 0; i < offlineCount; i++) {
            slots.put(prefix + OFFLINE + i, onlineCount + i);
        }
        this.slots = Map.copyOf(slots);
    }

    /** @param redis the server's embedded Redis, or null when it is not the generator's child */
    static void run(Dialer dialer, RedisProbe redis, LoadOptions options, String prefix, Report report)
            throws InterruptedException {
        int members = options.groupMembers();
        int onlineCount = (members + 1) / 2;
        GroupsPart part = new GroupsPart(prefix, onlineCount, members - onlineCount);
        try (ClientPool pool = dialer.pool()) {
            Opened<LoadClient> online = pool.open(prefix + ONLINE, onlineCount, LOGINS, part);
            Opened<LoadClient> offline = pool.open(prefix + OFFLINE, part.offlineCount, LOGINS, part);
            Opened<LoadClient> others = pool.open(prefix + OTHERS, 2, LOGINS, part);
            report.note(String.format(Locale.ROOT, "part 5 group members: %,d logged in of %,d in %.1f s%s",
                    online.clients().size() + offline.clients().size(), members,
                    (online.elapsed().toMillis() + offline.elapsed().toMillis()) / 1000.0,
                    online.failed() + offline.failed() + others.failed() == 0 ? ""
                            : "; first failure: " + online.firstFailure() + offline.firstFailure()
                                    + others.firstFailure()));
            if (online.clients().size() < onlineCount || offline.clients().size() < part.offlineCount
                    || others.clients().size() < 2) {
                report.add(5, "group fan-out", "skipped: not every member logged in", "");
                return;
            }
            part.measure(pool, prefix, online.clients(), offline.clients(), others.clients(), redis, options, report);
            report.note("part 5 group pool connections: " + pool.counters());
        }
    }

    private void measure(ClientPool pool, String prefix, List<LoadClient> online, List<LoadClient> offline,
            List<LoadClient> others, RedisProbe redis, LoadOptions options, Report report) throws InterruptedException {
        int members = onlineCount + offlineCount;
        LoadClient sender = online.get(0);
        if (!create(sender, members, report)) {
            return;
        }
        List<LoadClient> all = new ArrayList<>(online);
        all.addAll(offline);

        System.err.printf(Locale.ROOT, "cim-loadgen: part 5: %d group messages to %,d members, one after the other%n",
                options.groupRounds(), members);
        Phase rounds = phase(ROUNDS, members, options.groupRounds());
        FanOutRounds.Result result = rounds(sender, rounds, options.groupRounds(), members - 1);
        report.add(5, String.format(Locale.ROOT, "group of %,d members, all online: one member posts, send → the last "
                + "of the %,d others' receipts, %d rounds one after the other", members, members - 1,
                options.groupRounds()), String.format(Locale.ROOT, "**%s**; first receipt p50 %s ms; missing %,d; %s",
                result.last().toMillisShort(), Percentiles.ms(result.first().p50()), result.missing(), rounds.receipts),
                TARGET);

        sustained(all, options, report);

        System.err.printf(Locale.ROOT, "cim-loadgen: part 5: %,d members offline, %,d group messages%n", offlineCount,
                options.groupOfflineMessages());
        String stillOnline = Offline.closeAndAwait(sender, offline, GO_OFFLINE);
        int count = options.groupOfflineMessages();
        long memoryBefore = redis != null ? redis.settledUsedMemory(QUIET, SETTLE) : -1;
        Phase away = phase(AWAY, members, count);
        away.completeAt = count;
        FanOutRounds.Result awayResult = rounds(sender, away, count, onlineCount - 1);
        long memoryAfter = redis != null ? redis.settledUsedMemory(QUIET, SETTLE) : -1;
        report.add(5, String.format(Locale.ROOT, "group, %,d of %,d members offline: %,d messages one after the other, "
                + "send → the last of the %,d online others' receipts", offlineCount, members, count, onlineCount - 1),
                String.format(Locale.ROOT, "**%s**; missing %,d; %s%s", awayResult.last().toMillisShort(),
                        awayResult.missing(), away.receipts, stillOnline), TARGET);
        memory(sender, others, redis, memoryBefore, memoryAfter, count, members, report);

        catchUp(pool, prefix, sender, away, count, report);
    }

    /** Makes the group of every member, owned by {@code owner}; false (reported) if it is not whole. */
    private boolean create(LoadClient owner, int members, Report report) throws InterruptedException {
        List<String> names = new ArrayList<>(slots.keySet());
        names.remove(owner.user());
        GroupResult created;
        try {
            created = owner.client().groups().create(groupName, false, names)
                    .get(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            report.add(5, "group fan-out", "skipped: the group was not made: "
                    + (e.getCause() != null ? e.getCause().getMessage() : e.toString()), "");
            return false;
        }
        if (created.group().members() != members) {
            report.add(5, "group fan-out", String.format(Locale.ROOT, "skipped: the group was made with %,d members of "
                    + "%,d; refused %,d%s", created.group().members(), members, created.refused().size(),
                    created.refused().isEmpty() ? "" : " (first: " + created.refused().get(0) + ")"), "");
            return false;
        }
        return true;
    }

    private Phase phase(String tag, int members, int expectedMessages) {
        Phase phase = new Phase(tag, members, expectedMessages);
        phases.put(tag, phase);
        return phase;
    }

    /** Rounds of {@code phase}, each a message of the sender (slot 0) waiting for {@code expected} receipts. */
    private FanOutRounds.Result rounds(LoadClient sender, Phase phase, int count, int expected) {
        return phase.rounds.run(count, expected, round -> {
            long number = post(sender, 0, phase, null);
            if (number != round) {
                throw new IllegalStateException("message " + number + " of phase " + phase.tag
                        + " sent as round " + round + " (expected: one message per round, numbered alike)");
            }
        });
    }

    /**
     * Posts the next message of {@code phase} from member {@code slot}; once it is {@code POSTED},
     * runs {@code then} (if not null) on the client's event loop. A refused message is expected by
     * nobody.
     *
     * @return its number
     */
    private long post(LoadClient poster, int slot, Phase phase, Runnable then) {
        long number = phase.ledger.issue(slot);
        String text = new Token(phase.tag, number, System.nanoTime(), 0).text(TEXT_LENGTH);
        poster.client().send(group, text).whenComplete((receipt, failure) -> {
            if (failure != null) {
                phase.ledger.refused(number, slot);
                phase.receipts.failure(failure);
                return;
            }
            phase.receipts.receipt(receipt);
            if (then != null) {
                then.run();
            }
        });
        return number;
    }

    private void sustained(List<LoadClient> all, LoadOptions options, Report report) throws InterruptedException {
        int window = options.groupWindow();
        Duration duration = options.groupDuration();
        System.err.printf(Locale.ROOT, "cim-loadgen: part 5: %d group messages in flight for %d s%n", window,
                duration.toSeconds());
        Phase phase = phase(SUSTAINED, all.size(), 1 << 12);
        LongAdder posted = new LongAdder();
        long start = System.nanoTime();
        phase.countFrom = start;
        phase.countTo = start + duration.toNanos();
        running = true;
        for (int i = 0; i < window; i++) {
            keepPosting(all.get(i % all.size()), i % all.size(), phase, posted);
        }
        // The loop runs itself on the event loops; this thread only waits out the run's length.
        TimeUnit.NANOSECONDS.sleep(Math.max(0, phase.countTo - System.nanoTime()));
        running = false;
        long stopped = System.nanoTime();
        phase.ledger.awaitAll(DRAIN_TIMEOUT);
        long drain = Math.max(0, phase.lastReceipt.get() - stopped);
        double seconds = duration.toNanos() / 1e9;
        int senders = Math.min(window, all.size());
        report.add(5, String.format(Locale.ROOT, "group of %,d, all online, sustained: %d messages in flight from %d "
                + "members (each sends its next on its last one's POSTED receipt) for %.0f s; deliveries per second "
                + "summed over the members", all.size(), window, senders, seconds),
                String.format(Locale.ROOT, "**%,.0f deliveries/s** (%,.1f msgs/s posted); delivery send → receipt %s; "
                        + "**lost %,d, duplicated %,d** (by member and number, after %.1f s of drain once sending "
                        + "stopped); %s", phase.counted.sum() / seconds, posted.sum() / seconds,
                        phase.latency.percentiles().toMillisShort(), phase.ledger.lost(), phase.ledger.duplicates(),
                        drain / 1e9, phase.receipts), TARGET);
    }

    private void keepPosting(LoadClient poster, int slot, Phase phase, LongAdder posted) {
        post(poster, slot, phase, () -> {
            if (System.nanoTime() - phase.countTo < 0) {
                posted.increment();
            }
            if (running) {
                keepPosting(poster, slot, phase, posted);
            }
        });
    }

    /**
     * The Redis row: a group message's cost, from {@code before} and {@code after}, and an inbox
     * copy's, from private messages of the same length to a user who is offline and to one who is not
     * (each after a first one, so that the keys it makes do not count).
     */
    private void memory(LoadClient sender, List<LoadClient> others, RedisProbe redis, long before, long after,
            int count, int members, Report report) throws InterruptedException {
        String measurement = String.format(Locale.ROOT, "Redis used_memory per group message (the %,d above, kept "
                + "once in the group's log; each reading once it held still for %d s), and what an inbox copy for "
                + "each member would take", count, QUIET.toSeconds());
        if (redis == null || before < 0 || after < 0) {
            report.add(5, measurement, redis == null ? "not read (not the generator's child server)" : "unreadable",
                    TARGET);
            return;
        }
        double perMessage = (after - before) / (double) count;
        LoadClient away = others.get(0);
        LoadClient here = others.get(1);
        String stillOnline = Offline.closeAndAwait(sender, List.of(away), GO_OFFLINE);
        // One message each first: the keys they make (inbox, history, indexes) are not a copy's cost.
        String first = firstNonNull(privateMessages(sender, away, 1), privateMessages(sender, here, 1));
        long m0 = redis.settledUsedMemory(QUIET, SETTLE);
        String toAway = privateMessages(sender, away, count);
        long m1 = redis.settledUsedMemory(QUIET, SETTLE);
        String toHere = privateMessages(sender, here, count);
        long m2 = redis.settledUsedMemory(QUIET, SETTLE);
        String failed = firstNonNull(first, firstNonNull(toAway, toHere));
        String copy;
        if (failed != null || !stillOnline.isEmpty() || m0 < 0 || m1 < 0 || m2 < 0) {
            copy = "inbox copy not measured: " + (failed != null ? failed
                    : !stillOnline.isEmpty() ? stillOnline : "Redis unreadable");
        } else if (perMessage <= 0) {
            copy = "no ratio: the log's growth is within what Redis' memory moves by itself (send more messages)";
        } else {
            double stored = (m1 - m0) / (double) count;
            double delivered = (m2 - m1) / (double) count;
            double inboxCopy = stored - delivered;
            double perMember = (members - 1) * inboxCopy;
            copy = String.format(Locale.ROOT, "an inbox copy %,.0f bytes (a private msg to an offline user %,.0f, "
                    + "less one to an online user %,.0f: both are in the history); a copy for each of the %,d other "
                    + "members would take %,.0f bytes: **the log takes 1/%,.0f of that** (1/%,.0f of a copy for each "
                    + "of the %,d offline only)", inboxCopy, stored, delivered, members - 1, perMember,
                    perMember / perMessage, offlineCount * inboxCopy / perMessage, offlineCount);
        }
        report.add(5, measurement, String.format(Locale.ROOT, "**%,.0f bytes per group msg** (%s → %s); %s",
                perMessage, MemoryGrowth.mib(before), MemoryGrowth.mib(after), copy), TARGET);
    }

    private static String firstNonNull(String a, String b) {
        return a != null ? a : b;
    }

    /** Sends {@code count} private messages and waits until the last is in the history; null, or what failed. */
    private static String privateMessages(LoadClient from, LoadClient to, int count) throws InterruptedException {
        ConversationFill.Result filled;
        try {
            filled = ConversationFill.start(from, to, count, FILL_WINDOW,
                    i -> new Token(INBOX, i, System.nanoTime(), 0).text(TEXT_LENGTH), new ReceiptCounts())
                    .get(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return "private messages to " + to.user() + " not all answered: " + e;
        }
        if (filled.receipts().refused() > 0) {
            return "private messages to " + to.user() + ": " + filled.receipts();
        }
        if (ConversationFill.awaitInHistory(from, "@" + to.user(), filled.lastText(), HISTORY_TIMEOUT) == null) {
            return "the last private message to " + to.user() + " was not in the history after " + HISTORY_TIMEOUT;
        }
        return null;
    }

    /** The offline half logs in again and reads the {@code count} messages of {@code away} from the group's log. */
    private void catchUp(ClientPool pool, String prefix, LoadClient sender, Phase away, int count, Report report)
            throws InterruptedException {
        System.err.printf(Locale.ROOT, "cim-loadgen: part 5: %,d members log in again%n", offlineCount);
        long start = System.nanoTime();
        Opened<LoadClient> back = pool.open(prefix + OFFLINE, offlineCount, LOGINS, this);
        long loggedIn = System.nanoTime();
        // A minute, and a second per 10,000 copies to read: a server that stopped would hold the run forever.
        long deadline = loggedIn + TimeUnit.MINUTES.toNanos(1) + (long) offlineCount * count * 100_000L;
        while (incomplete(away) > 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // polling a condition, with a deadline
        }
        // From the start of the logins, and from each member's own login (the log read alone).
        long[] fromStart = new long[offlineCount];
        long[] fromLogin = new long[offlineCount];
        int complete = 0;
        for (LoadClient member : back.clients()) {
            long at = away.completedNanos.get(slots.get(member.user()));
            if (at != 0) {
                fromStart[complete] = at - start;
                fromLogin[complete++] = at - member.loggedInNanos();
            }
        }
        // Whatever else was on its way to them arrives before a message sent after it.
        Phase barrier = phase(BARRIER, onlineCount + offlineCount, 1);
        FanOutRounds.Result last = rounds(sender, barrier, 1, onlineCount + offlineCount - 1);
        report.add(5, String.format(Locale.ROOT, "group: the %,d offline members log in again (%,d in %.1f s, %d at a "
                + "time); the member's login → it has all %,d messages from the group's log; from the start of the "
                + "logins", offlineCount, back.clients().size(), (loggedIn - start) / 1e9,
                ClientPool.MAX_LOGINS_IN_FLIGHT, count), String.format(Locale.ROOT, "**%s**; from the start: %s; "
                + "**%,d of %,d members have all %,d**; of every member's copies: **lost %,d, duplicated %,d**; a "
                + "message to all after it: missing %,d", complete == 0 ? "none complete"
                : Percentiles.of(fromLogin, complete).toMillisShort(), complete == 0 ? "-"
                : Percentiles.of(fromStart, complete).toMillisShort(), complete, offlineCount, count,
                away.ledger.lost(), away.ledger.duplicates(), last.missing()), TARGET);
    }

    /** Members of the offline half who do not have every message of {@code away} yet. */
    private int incomplete(Phase away) {
        int missing = 0;
        for (int slot = onlineCount; slot < onlineCount + offlineCount; slot++) {
            if (away.completedNanos.get(slot) == 0) {
                missing++;
            }
        }
        return missing;
    }

    @Override
    public void onChat(LoadClient receiver, ChatMessage chat, long receivedNanos) {
        Integer slot = slots.get(receiver.user());
        if (slot == null || !chat.isToGroup()) {
            return;
        }
        Token token = Token.parse(chat.text());
        Phase phase = token == null ? null : phases.get(token.tag());
        if (phase != null) {
            phase.received(slot, token, receivedNanos);
        }
    }
}
