package dev.cim.loadgen;

import dev.cim.client.core.ChatMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Part 4, scheduled messages that outlive their senders (issue 11), on one server, in three phases:
 * <ol>
 *   <li><b>far-future</b>: {@code delayedFar} messages of {@value #FAR_TEXT_LENGTH} characters due
 *       uniformly 1..400 days ahead, from {@code delayedSenders} senders to {@code delayedReceivers}
 *       receivers. Measured: the registration rate (first request to last acknowledgement, at most
 *       {@value Registrations#IN_FLIGHT} requests in flight), the server's live heap before and after (each after
 *       a full GC: the server's wheel holds only its near window, the rest waits in Redis), and
 *       Redis' {@code used_memory} before and after, per message. They are never due during the run.</li>
 *   <li><b>near</b>: {@code delayed} messages due uniformly within {@code delayedWindow};</li>
 *   <li><b>burst</b>: {@code delayedBurst} messages due within one whole second, after the near
 *       window.</li>
 * </ol>
 * Near and burst messages come from the same senders; once every one of them is registered, the
 * first {@code delayedDisconnect} of the senders close their clients, so their messages must be
 * sent by the server; the others' clients release theirs from their delay wheel. Receivers stay
 * connected, and are never senders (a sender's messages to itself would reach it through its inbox
 * at its next login, not on time). The first due time is set far enough ahead for all of this:
 * {@value #MIN_LEAD_SECONDS} s plus 1.5 times the registrations' expected duration at the far-future
 * phase's rate (2,000/s without one); a message acknowledged after its due time is counted.
 *
 * <p><b>Lateness</b> is receipt time minus due time on this machine's wall clock (the due time is in
 * the text), split by who sent the message ({@link ChatMessage.Delay#firedByServer()}), and for the
 * near window also its p99 per slice of due time, which shows whether a tail is a stall (and when)
 * or spread over the window. A receipt
 * before its due time is <b>early</b>. Every near and burst message has a sequence number, so
 * <b>lost</b> and <b>duplicated</b> are exact; a far-future message received is counted too (it
 * would be hundreds of days early).
 *
 * <p>One part of the load, whose three phases share their senders, receivers and ledger; its length
 * is those phases and the report of what each measured.
 */
final class DelayedPart implements Traffic {

    /** The issue's text length for the memory target. */
    static final int FAR_TEXT_LENGTH = 50;
    static final Duration FAR_MIN = Duration.ofDays(1);
    /** Less than the server's default maximum delay of 400 days, so none is refused for a late clock read. */
    static final Duration FAR_MAX = Duration.ofDays(400).minusHours(1);
    private static final int MIN_LEAD_SECONDS = 5;
    /** Between the end of the near window and the burst's second. */
    private static final Duration BURST_GAP = Duration.ofSeconds(5);
    /** The registration rate assumed for the lead when there was no far-future phase to measure it. */
    private static final double ASSUMED_RATE = 2_000;
    /** The near window's lateness is also given per slice of due time, at most this many. */
    private static final int MAX_SLICES = 12;
    /** Between the two heap readings after the far-future messages. */
    private static final Duration HEAP_RECHECK = Duration.ofSeconds(10);
    /** How long after the last due time missing messages are waited for. */
    private static final Duration GRACE = Duration.ofSeconds(60);

    private static final String FAR = "f";
    private static final String NEAR = "n";
    private static final String BURST = "b";

    private final DeliveryLedger ledger;
    private final LatencyRecorder nearBySender = new LatencyRecorder();
    private final LatencyRecorder nearByServer = new LatencyRecorder();
    private final LatencyRecorder burstBySender = new LatencyRecorder();
    private final LatencyRecorder burstByServer = new LatencyRecorder();
    private final LongAdder early = new LongAdder();
    private final LongAdder farDelivered = new LongAdder();
    private final AtomicLong lastBurstReceipt = new AtomicLong();
    /** The near window's p99 per slice of due time: a stall shows where it was. */
    private volatile LatencyRecorder[] nearSlices = new LatencyRecorder[0];
    private volatile long nearStartMillis;
    private volatile long sliceMillis = 1;

    private DelayedPart(int expected) {
        ledger = new DeliveryLedger(expected);
    }

    /**
     * @param serverPid the server's pid for its heap and CPU time (and its Redis' CPU time), or 0
     * @param redis     the server's embedded Redis, or null when it is not the generator's child
     */
    static void run(Dialer dialer, long serverPid, RedisProbe redis, LoadOptions options, String prefix, Report report)
            throws InterruptedException {
        // Chat pools are closed by now: their first source address is free again.
        try (ClientPool pool = dialer.pool()) {
            Opened<LoadClient> senders = pool.open(prefix + "s", options.delayedSenders(), Duration.ofMinutes(5));
            Opened<LoadClient> receivers = pool.open(prefix + "r", options.delayedReceivers(), Duration.ofMinutes(5));
            report.note(String.format(Locale.ROOT, "part 4 users: %,d senders and %,d receivers logged in of %,d and "
                    + "%,d%s", senders.clients().size(), receivers.clients().size(), options.delayedSenders(),
                    options.delayedReceivers(), senders.failed() + receivers.failed() == 0 ? ""
                            : "; first failure: " + senders.firstFailure() + receivers.firstFailure()));
            if (senders.clients().isEmpty() || receivers.clients().isEmpty()) {
                report.note("part 4 skipped: no sender or no receiver logged in");
                return;
            }
            DelayedPart part = new DelayedPart(options.delayed() + options.delayedBurst());
            receivers.clients().forEach(c -> c.traffic(part));
            long rewritesBefore = redis != null ? redis.infoNumber("persistence", "aof_rewrites") : -1;
            try {
                double rate = options.delayedFar() > 0
                        ? part.farFuture(senders.clients(), receivers.clients(), serverPid, redis, options, report)
                        : ASSUMED_RATE;
                if (options.delayed() + options.delayedBurst() > 0) {
                    part.nearAndBurst(senders.clients(), receivers.clients(), rate, options, report);
                }
            } finally {
                receivers.clients().forEach(c -> c.traffic(Traffic.NONE));
            }
            if (redis != null) {
                // Rewriting a large AOF forks Redis and takes a core for seconds: it is part of the run.
                report.note(String.format(Locale.ROOT, "part 4, the server's Redis: aof_enabled %d; append-only file "
                        + "rewrites during the part %d", redis.infoNumber("persistence", "aof_enabled"),
                        redis.infoNumber("persistence", "aof_rewrites") - rewritesBefore));
            }
        }
    }

    // Phase 1.

    /** Returns the registration rate, msgs/s. */
    private double farFuture(List<LoadClient> senders, List<LoadClient> receivers, long serverPid,
            RedisProbe redis, LoadOptions options, Report report) throws InterruptedException {
        int count = options.delayedFar();
        System.err.printf(Locale.ROOT, "cim-loadgen: part 4: %,d far-future messages%n", count);
        ServerProbe probe = serverPid > 0 ? new ServerProbe(serverPid) : null;
        ServerProbe.Reading heapBefore = probe != null ? probe.read() : null;
        long redisBefore = redis != null ? redis.usedMemory() : -1;
        ProcessHandle serverProcess = serverPid > 0 ? ProcessHandle.of(serverPid).orElse(null) : null;
        ProcessHandle redisProcess = serverProcess == null ? null : serverProcess.descendants()
                // Debian's redis-server is a link to redis-check-rdb, which is what /proc names
                .filter(p -> p.info().command().map(c -> c.contains("redis")).orElse(false))
                .findFirst().orElse(null);
        Cpu cpuBefore = Cpu.read(serverProcess, redisProcess);
        Registrations registrations = new Registrations(count);
        long first = System.nanoTime();
        long minMillis = FAR_MIN.toMillis();
        long spanMillis = FAR_MAX.toMillis() - minMillis;
        for (int i = 0; i < count; i++) {
            LoadClient sender = senders.get(i % senders.size());
            LoadClient receiver = receivers.get(ThreadLocalRandom.current().nextInt(receivers.size()));
            Instant due = Instant.now().plusMillis(minMillis + ThreadLocalRandom.current().nextLong(spanMillis));
            String text = new Token(FAR, i, due.toEpochMilli(), 0).text(FAR_TEXT_LENGTH);
            registrations.issue();
            sender.client().schedule(receiver.recipient(), text, due)
                    .whenComplete((m, failure) -> registrations.done(failure));
        }
        String unanswered = registrations.awaitAll();
        double seconds = (registrations.lastAnswerNanos() - first) / 1e9;
        Cpu cpuAfter = Cpu.read(serverProcess, redisProcess);
        double rate = (count - registrations.refused()) / seconds;
        report.add(4, String.format(Locale.ROOT, "far-future: %,d scheduled msgs of %d chars due 1..400 days ahead "
                        + "from %,d senders (%,d requests in flight), first request → last acknowledgement",
                        count, FAR_TEXT_LENGTH, senders.size(), Registrations.IN_FLIGHT),
                String.format(Locale.ROOT, "**%,.0f msgs/s** (%.1f s); refused %,d%s%s", rate, seconds,
                        registrations.refused(), registrations.firstFailure(), unanswered), "≥ 20,000 msgs/s");
        report.add(4, "far-future: CPU time per registration (user + system, all threads), and the rate the "
                + "machine's cores would allow at that cost", cpuAfter.minus(cpuBefore).per(count), "");
        TimeUnit.SECONDS.sleep(2); // the last answers and the AOF write settle
        if (probe != null) {
            ServerProbe.Reading heapAfter = probe.read();
            // A second reading shows how much of a difference is the moment's, not the messages'.
            TimeUnit.SECONDS.sleep(HEAP_RECHECK.toSeconds());
            ServerProbe.Reading heapLater = probe.read();
            long before = heapBefore.liveHeapBytes();
            long after = heapAfter.liveHeapBytes();
            long later = heapLater.liveHeapBytes();
            report.add(4, "far-future: server live heap before → after them (jcmd GC.run, then GC.heap_info used); "
                            + "again " + HEAP_RECHECK.toSeconds() + " s later",
                    before < 0 || after < 0 || later < 0 ? "unreadable"
                            : String.format(Locale.ROOT, "%s → %s: **%+.1f MiB**; %s: %+.1f MiB",
                                    MemoryGrowth.mib(before), MemoryGrowth.mib(after), (after - before) / 1048576.0,
                                    MemoryGrowth.mib(later), (later - before) / 1048576.0),
                    "< 10 MB for 1,000,000");
        } else {
            report.add(4, "far-future: server live heap", "not read (no server pid)", "< 10 MB for 1,000,000");
        }
        if (redis != null) {
            report.add(4, "far-future: Redis used_memory (INFO memory) before → after, per message",
                    new MemoryGrowth(redisBefore, redis.usedMemory()).per(count, "msg"), "≤ 300 bytes (50-char text)");
        } else {
            report.add(4, "far-future: Redis memory per message", "not read (not the generator's child server)",
                    "≤ 300 bytes (50-char text)");
        }
        return rate;
    }

    // Phases 2 and 3.

    private void nearAndBurst(List<LoadClient> senders, List<LoadClient> receivers, double rate, LoadOptions options,
            Report report) throws InterruptedException {
        int near = options.delayed();
        int burst = options.delayedBurst();
        int total = near + burst;
        int disconnecting = (int) Math.round(senders.size() * options.delayedDisconnect());
        double expectedSeconds = total / Math.max(1, rate);
        Duration lead = Duration.ofMillis((long) ((MIN_LEAD_SECONDS + 1.5 * expectedSeconds) * 1000));
        Instant start = Instant.now().plus(lead);
        long windowMillis = options.delayedWindow().toMillis();
        sliceMillis = Math.max(10_000, (windowMillis + MAX_SLICES - 1) / MAX_SLICES);
        LatencyRecorder[] slices = new LatencyRecorder[(int) ((windowMillis + sliceMillis - 1) / sliceMillis)];
        for (int i = 0; i < slices.length; i++) {
            slices[i] = new LatencyRecorder();
        }
        nearStartMillis = start.toEpochMilli();
        nearSlices = slices;
        Instant burstSecond = Instant.ofEpochSecond(start.plusMillis(windowMillis).plus(BURST_GAP).getEpochSecond() + 1);
        System.err.printf(Locale.ROOT, "cim-loadgen: part 4: %,d near and %,d burst messages, the first due in %.1f s%n",
                near, burst, lead.toMillis() / 1000.0);

        // How many of each sender's registrations are unanswered: the disconnecting ones close at 0.
        AtomicIntegerArray unanswered = new AtomicIntegerArray(senders.size());
        for (int i = 0; i < total; i++) {
            unanswered.incrementAndGet(i % senders.size());
        }
        ExecutorService closer = Executors.newSingleThreadExecutor(r -> new Thread(r, "loadgen-closer"));
        LongAdder registeredLate = new LongAdder();
        AtomicLong lastClosed = new AtomicLong();
        Registrations registrations = new Registrations(total);
        long first = System.nanoTime();
        for (int i = 0; i < total; i++) {
            int senderIndex = i % senders.size();
            LoadClient sender = senders.get(senderIndex);
            LoadClient receiver = receivers.get(ThreadLocalRandom.current().nextInt(receivers.size()));
            boolean isBurst = i >= near;
            Instant due = isBurst ? burstSecond.plusMillis(ThreadLocalRandom.current().nextLong(1000))
                    : start.plusMillis(ThreadLocalRandom.current().nextLong(windowMillis));
            long seq = ledger.issue();
            String text = new Token(isBurst ? BURST : NEAR, seq, due.toEpochMilli(), 0).text(FAR_TEXT_LENGTH);
            registrations.issue();
            sender.client().schedule(receiver.recipient(), text, due).whenComplete((m, failure) -> {
                if (failure != null) {
                    ledger.receive(seq); // not scheduled: not expected either
                } else if (System.currentTimeMillis() > due.toEpochMilli()) {
                    registeredLate.increment();
                }
                if (unanswered.decrementAndGet(senderIndex) == 0 && senderIndex < disconnecting) {
                    closer.execute(() -> {
                        sender.close();
                        lastClosed.set(System.currentTimeMillis());
                    });
                }
                registrations.done(failure);
            });
        }
        String unansweredNote = registrations.awaitAll();
        double seconds = (registrations.lastAnswerNanos() - first) / 1e9;
        closer.shutdown();
        closer.awaitTermination(5, TimeUnit.MINUTES);
        report.add(4, String.format(Locale.ROOT, "near and burst: %,d + %,d scheduled msgs registered from the same "
                        + "senders, then %,d of them disconnect", near, burst, disconnecting),
                String.format(Locale.ROOT, "%,.0f msgs/s (%.1f s); refused %,d%s%s; first due %.1f s after the first "
                        + "request; last disconnect %.1f s before it; acknowledged after their due time %,d",
                        (total - registrations.refused()) / seconds, seconds, registrations.refused(),
                        registrations.firstFailure(), unansweredNote, lead.toMillis() / 1000.0,
                        disconnecting == 0 ? 0.0 : (start.toEpochMilli() - lastClosed.get()) / 1000.0,
                        registeredLate.sum()), "");

        Instant lastDue = burst > 0 ? burstSecond.plusSeconds(1) : start.plusMillis(windowMillis);
        System.err.printf(Locale.ROOT, "cim-loadgen: part 4: waiting for deliveries until %.0f s after the last due time "
                + "(%.0f s from now)%n", (double) GRACE.toSeconds(),
                Duration.between(Instant.now(), lastDue.plus(GRACE)).toMillis() / 1000.0);
        ledger.awaitAll(Duration.between(Instant.now(), lastDue).plus(GRACE));

        String senderTarget = "p99 ≤ tick (" + options.tick().toMillis() + " ms) + 50 ms";
        String serverTarget = "p99 ≤ the server's tick (10 ms by default) + 100 ms";
        if (near > 0) {
            report.add(4, String.format(Locale.ROOT, "near: %,d due within %ss, lateness receipt − due, sent by the "
                    + "sender's client", near, windowMillis / 1000.0), "**" + nearBySender.percentiles().toMillisShort()
                    + "**", senderTarget);
            report.add(4, "near: lateness, sent by the server (sender disconnected)",
                    "**" + nearByServer.percentiles().toMillisShort() + "**", serverTarget);
            StringBuilder bySlice = new StringBuilder();
            for (LatencyRecorder slice : nearSlices) {
                bySlice.append(bySlice.length() == 0 ? "" : " / ").append(Percentiles.ms(slice.percentiles().p99()));
            }
            report.add(4, String.format(Locale.ROOT, "near: lateness p99 (both) by %s s of due time, in order",
                    sliceMillis / 1000.0), bySlice + " ms", "");
        }
        if (burst > 0) {
            Percentiles bySender = burstBySender.percentiles();
            Percentiles byServer = burstByServer.percentiles();
            report.add(4, String.format(Locale.ROOT, "burst: %,d due within one second (%s), lateness, sent by the "
                    + "sender's client", burst, burstSecond), "**" + bySender.toMillisShort() + "**", senderTarget);
            report.add(4, "burst: lateness, sent by the server (sender disconnected)",
                    "**" + byServer.toMillisShort() + "**", serverTarget);
            long last = lastBurstReceipt.get();
            report.add(4, "burst: the last delivered, lateness (receipt − its due time); last receipt after the "
                            + "start of the burst's second",
                    bySender.count() + byServer.count() == 0 ? "none delivered"
                            : String.format(Locale.ROOT, "**%s ms**; %s ms", Percentiles.ms(Math.max(bySender.max(),
                                    byServer.max())), Percentiles.ms((last - burstSecond.toEpochMilli()) * 1_000_000)),
                    "all delivered, the last ≤ 5 s late");
        }
        report.add(4, "near and burst: accounting", String.format(Locale.ROOT, "**lost %,d, duplicated %,d, early %,d**"
                        + "%s; far-future msgs received %,d", ledger.lost(), ledger.duplicates(), early.sum(),
                        ledger.unknown() > 0 ? ", unknown tokens " + ledger.unknown() : "", farDelivered.sum()),
                "0 lost, 0 duplicated, 0 early");
    }

    @Override
    public void onChat(LoadClient receiver, ChatMessage chat, long receivedNanos) {
        long now = System.currentTimeMillis();
        Token token = Token.parse(chat.text());
        if (token == null) {
            return;
        }
        if (FAR.equals(token.tag())) {
            farDelivered.increment();
            return;
        }
        boolean burst = BURST.equals(token.tag());
        if (!(burst || NEAR.equals(token.tag())) || !ledger.receive(token.seq())) {
            return;
        }
        long late = now - token.nanos();
        if (late < 0) {
            early.increment();
        }
        boolean server = chat.delay() != null && chat.delay().firedByServer();
        LatencyRecorder recorder = burst ? (server ? burstByServer : burstBySender)
                : (server ? nearByServer : nearBySender);
        recorder.record(Math.max(0, late) * 1_000_000);
        if (burst) {
            lastBurstReceipt.accumulateAndGet(now, Math::max);
        } else {
            LatencyRecorder[] slices = nearSlices;
            int slice = (int) ((token.nanos() - nearStartMillis) / sliceMillis);
            if (slice >= 0 && slice < slices.length) {
                slices[slice].record(Math.max(0, late) * 1_000_000);
            }
        }
    }

    /** CPU time used so far by the server, its Redis and this generator; -1 where unreadable. */
    private record Cpu(long serverNanos, long redisNanos, long generatorNanos) {

        static Cpu read(ProcessHandle server, ProcessHandle redis) {
            return new Cpu(nanos(server), nanos(redis), nanos(ProcessHandle.current()));
        }

        private static long nanos(ProcessHandle process) {
            return process == null ? -1 : process.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
        }

        Cpu minus(Cpu earlier) {
            return new Cpu(diff(serverNanos, earlier.serverNanos), diff(redisNanos, earlier.redisNanos),
                    diff(generatorNanos, earlier.generatorNanos));
        }

        private static long diff(long later, long earlier) {
            return later < 0 || earlier < 0 ? -1 : later - earlier;
        }

        /** "server 40.1 + Redis 10.2 + generator 20.3 = 70.6 µs; at most 28,329/s on 2 cores". */
        String per(long count) {
            String text = String.format(Locale.ROOT, "server %s + Redis %s + generator %s", micros(serverNanos, count),
                    micros(redisNanos, count), micros(generatorNanos, count));
            if (serverNanos < 0 || redisNanos < 0 || generatorNanos < 0) {
                return text;
            }
            double micros = (serverNanos + redisNanos + generatorNanos) / 1000.0 / count;
            int cores = Runtime.getRuntime().availableProcessors();
            return text + String.format(Locale.ROOT, " = %.1f µs; at most %,.0f/s on %d cores", micros,
                    cores * 1e6 / micros, cores);
        }

        private static String micros(long nanos, long count) {
            return nanos < 0 ? "?" : String.format(Locale.ROOT, "%.1f µs", nanos / 1000.0 / count);
        }
    }
}
