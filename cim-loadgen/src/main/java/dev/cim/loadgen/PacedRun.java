package dev.cim.loadgen;

import dev.cim.client.core.ChatMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Offers private messages between random pairs at a fixed rate (open loop) and measures the
 * <b>latency from send to receipt</b> of each. Message {@code i} is meant to leave at
 * {@code start + i / rate}; its latency is measured from that <i>intended</i> time, not from when
 * the sending thread got round to it, so a stall in the generator or the server shows as latency
 * instead of hiding as a slower send (no coordinated omission). The generator's own share, intended
 * time to the moment its event loop wrote the message, is measured too. Receipt time is read first
 * thing when the recipient decodes the frame; both are {@link System#nanoTime()} in this one JVM.
 *
 * <p>Each client event loop (the users' {@link ChatUser#pacer()}; a peer's users have loops of their
 * own for it) paces its own clients with a task that sends the messages fallen due and runs again
 * when the next one is due, but at most every 100 µs; so no pacing thread competes with the loops
 * for the two cores, a low rate costs a wake-up per message and a high one a batch
 * per wake-up (a fixed 100 µs tick cost the generator 0.4 of a core even at 500 msg/s). If a loop
 * cannot keep up, it keeps sending late (the lateness counts as latency) until one second past the
 * run, and the messages never offered are reported.
 */
final class PacedRun extends ReceiptCountingTraffic {

    /**
     * @param rate       messages per second offered
     * @param offered    messages sent
     * @param notOffered messages the pacer could not send in time
     * @param latency    intended send to receipt, of every message received once
     * @param senderLag  intended send to the moment the generator wrote it: the generator's own share
     *                   of {@code latency}
     */
    record Result(double rate, long offered, long notOffered, Percentiles latency, Percentiles senderLag,
            DeliveryLedger ledger, ReceiptCounts receipts, String cpu) {
    }

    /** The most messages a run's {@link MessageLog} keeps: 24 bytes each. */
    private static final int MAX_LOGGED = 4_000_000;

    /** The shortest time between two wake-ups of a pacer. */
    private static final long PACE_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private final Pairs pairs;
    private final String tag;
    private final double rate;
    private final Duration duration;
    private final DeliveryLedger ledger;
    private final LatencyRecorder latency;
    private final LatencyRecorder senderLag;
    private final int expected;
    private MessageLog log;

    /**
     * @param tag  names this run in message texts (marked as this process's: {@link Token#ofThisRun});
     *             receipts of other runs are ignored
     * @param rate messages per second, for {@code duration}
     */
    PacedRun(Pairs pairs, String tag, double rate, Duration duration) {
        this.pairs = pairs;
        this.tag = Token.ofThisRun(tag);
        this.rate = rate;
        this.duration = duration;
        this.expected = (int) Math.min(Integer.MAX_VALUE - 1, rate * duration.toNanos() / 1e9 + 1024);
        this.ledger = new DeliveryLedger(expected);
        this.latency = new LatencyRecorder();
        this.senderLag = new LatencyRecorder();
    }

    /** Keeps every message's times and writes them to {@code file} after the run ({@link MessageLog}); null for none. */
    PacedRun logTo(Path file) {
        this.log = file == null ? null : new MessageLog(file, Math.min(expected, MAX_LOGGED));
        return this;
    }

    Result run(CpuMeter cpu) throws InterruptedException {
        pairs.route(this);
        CpuMeter.Reading cpuFrom = cpu.read();
        Map<ScheduledExecutorService, List<ChatUser>> byLoop = new IdentityHashMap<>();
        pairs.clients().forEach(c -> byLoop.computeIfAbsent(c.pacer(), loop -> new ArrayList<>()).add(c));
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10); // every pacer scheduled by then
        long giveUp = start + duration.toNanos() + TimeUnit.SECONDS.toNanos(1);
        CountDownLatch finished = new CountDownLatch(byLoop.size());
        List<LoopPacer> pacers = new ArrayList<>();
        byLoop.forEach((loop, own) -> {
            // Each loop offers its clients' share of the rate, so the shares add up to the rate.
            double share = rate * own.size() / pairs.clients().size();
            long total = Math.max(1, (long) (share * duration.toNanos() / 1e9));
            LoopPacer pacer = new LoopPacer(loop, own, 1e9 / share, total, start, giveUp, finished);
            pacers.add(pacer);
            loop.schedule(pacer, start - System.nanoTime(), TimeUnit.NANOSECONDS);
        });
        finished.await(giveUp - System.nanoTime() + TimeUnit.SECONDS.toNanos(1), TimeUnit.NANOSECONDS);
        long offered = pacers.stream().mapToLong(p -> p.sent).sum();
        long notOffered = pacers.stream().mapToLong(p -> p.total - p.sent).sum();
        ledger.awaitAll(Duration.ofSeconds(10));
        CpuMeter.Reading cpuTo = cpu.read();
        pairs.route(Traffic.NONE);
        if (log != null) {
            log.write(start);
        }
        return new Result(rate, offered, notOffered, latency.percentiles(), senderLag.percentiles(), ledger,
                receipts, CpuMeter.perMessage(cpuFrom, cpuTo, ledger.received()));
    }

    /**
     * Paces the clients of one event loop, on that loop: each run sends the messages that fell due
     * since the last, each from a random client of its own to a random user, and schedules the next.
     */
    private final class LoopPacer implements Runnable {

        private final ScheduledExecutorService loop;
        private final List<ChatUser> own;
        private final double nanosPerMessage;
        private final long start;
        private final long giveUp;
        private final CountDownLatch finished;
        final long total;
        /** Written on the loop, read after {@code finished}. */
        volatile long sent;

        LoopPacer(ScheduledExecutorService loop, List<ChatUser> own, double nanosPerMessage, long total, long start,
                long giveUp, CountDownLatch finished) {
            this.loop = loop;
            this.own = own;
            this.nanosPerMessage = nanosPerMessage;
            this.total = total;
            this.start = start;
            this.giveUp = giveUp;
            this.finished = finished;
        }

        @Override
        public void run() {
            long now = System.nanoTime();
            long due = Math.min(total, (long) ((now - start) / nanosPerMessage) + 1);
            long n = sent;
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (; n < due; n++) {
                long intended = start + (long) (n * nanosPerMessage);
                ChatUser sender = own.get(random.nextInt(own.size()));
                pairs.send(sender, new Token(tag, ledger.issue(), intended, System.nanoTime()));
            }
            sent = n;
            if (n == total || now > giveUp) {
                finished.countDown();
                return;
            }
            // Next when the next message falls due, but not sooner than PACE_NANOS from now: a
            // wake-up per message at low rates, a batch per wake-up at high ones.
            long next = start + (long) (n * nanosPerMessage);
            loop.schedule(this, Math.max(PACE_NANOS, next - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void onChat(LoadClient receiver, ChatMessage chat, long receivedNanos) {
        onText(receiver, chat.text(), receivedNanos);
    }

    @Override
    public void onText(ChatUser receiver, String text, long receivedNanos) {
        Token token = Token.parse(text);
        if (token != null && tag.equals(token.tag()) && ledger.receive(token.seq())) {
            latency.record(receivedNanos - token.nanos());
            senderLag.record(token.extra() - token.nanos());
            if (log != null) {
                log.add(token.nanos(), receivedNanos, token.extra());
            }
        }
    }
}
