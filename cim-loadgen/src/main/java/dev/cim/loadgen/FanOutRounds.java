package dev.cim.loadgen;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * Rounds of one message to many receivers (a broadcast, a group message), one after the other: each
 * round's time is taken from just before its send until the <b>last</b> of its expected receipts
 * (the first is kept too), and the next round is sent only then, or once a deadline has passed, after
 * which the receivers still missing are counted. The part that owns the rounds hands each receipt of
 * a round's message to {@link #received}, once per receiver.
 */
final class FanOutRounds {

    /**
     * @param last    send → last receipt of each round; a round nobody received counts as the timeout
     * @param first   send → first receipt of each round
     * @param missing receipts expected and not there when their round's deadline passed
     */
    record Result(Percentiles last, Percentiles first, long missing) {
    }

    /** One round in flight: its number, when it was sent, and its receipts so far. */
    private record Round(long number, long sentNanos, AtomicInteger receivers, AtomicLong firstNanos,
            AtomicLong lastNanos) {
    }

    private final Duration timeout;
    private volatile Round round;

    /** @param timeout how long a round waits for its last receipt */
    FanOutRounds(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout: " + timeout + " (expected: > 0)");
        }
        this.timeout = timeout;
    }

    /**
     * Runs {@code rounds} rounds numbered 0, 1, ...: {@code send} sends round {@code r}'s message,
     * whose receipts name {@code r}, and {@code expected} receipts are waited for.
     */
    Result run(int rounds, int expected, LongConsumer send) {
        if (rounds < 1 || expected < 1) {
            throw new IllegalArgumentException("rounds: " + rounds + ", expected: " + expected
                    + " (expected: each >= 1)");
        }
        long[] last = new long[rounds];
        long[] first = new long[rounds];
        long missing = 0;
        for (int r = 0; r < rounds; r++) {
            Round current = new Round(r, System.nanoTime(), new AtomicInteger(), new AtomicLong(Long.MAX_VALUE),
                    new AtomicLong());
            round = current;
            send.accept(r);
            long deadline = current.sentNanos() + timeout.toNanos();
            while (current.receivers().get() < expected && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200)); // polling a condition, with a deadline
            }
            int receivers = current.receivers().get();
            missing += Math.max(0, expected - receivers);
            // A round nobody received counts as the whole timeout, not as a negative time.
            last[r] = receivers > 0 ? current.lastNanos().get() - current.sentNanos() : timeout.toNanos();
            first[r] = receivers > 0 ? current.firstNanos().get() - current.sentNanos() : timeout.toNanos();
        }
        round = null;
        return new Result(Percentiles.of(last, rounds), Percentiles.of(first, rounds), missing);
    }

    /** A receipt of round {@code number}'s message; a receipt of any other round is not counted. Any thread. */
    void received(long number, long receivedNanos) {
        Round current = round;
        if (current == null || current.number() != number) {
            return;
        }
        current.firstNanos().accumulateAndGet(receivedNanos, Math::min);
        current.lastNanos().accumulateAndGet(receivedNanos, Math::max);
        current.receivers().incrementAndGet();
    }
}
