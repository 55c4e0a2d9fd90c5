package dev.cim.loadgen;

import dev.cim.common.schedule.Recurrence;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Accounts for the occurrences of many recurring messages ("series"), each known by its number
 * {@code 0..count-1} (which the generator writes in its text) and by the id the server gave it. An
 * occurrence arrives as a chat message whose id is {@code <id>.<occurrence>}, occurrence 1 first.
 * <ul>
 *   <li><b>duplicated</b>: a chat id received again;</li>
 *   <li><b>misnumbered</b>: a chat id that is not its series' id, a dot and its occurrence;</li>
 *   <li><b>missed</b>: the sum of what occurrences said was not sent before them (an outage);</li>
 *   <li><b>lost</b>: of each series, the occurrences due at least a margin before its cancel was
 *       asked for, by its rule from its first due time, less those received and those it said were
 *       missed;</li>
 *   <li><b>fired after cancel</b>: series with an occurrence due after their cancel was
 *       acknowledged.</li>
 * </ul>
 * Thread-safe: occurrences are received on the event loops, registrations and cancels noted as
 * they are answered. A number outside {@code 0..count-1}, or of a series not (yet) noted as
 * scheduled, is <b>unknown</b>.
 */
final class SeriesLedger {

    private static final long NONE = Long.MIN_VALUE;

    private final int count;
    private final AtomicReferenceArray<String> ids;
    private final AtomicLongArray firstDueMillis;
    private final AtomicLongArray cancelAskedMillis;
    private final AtomicLongArray cancelledMillis;
    private final AtomicLongArray lastDueMillis;
    private final AtomicIntegerArray missed;
    private final Set<String> received = ConcurrentHashMap.newKeySet();
    private final LongAdder duplicates = new LongAdder();
    private final LongAdder misnumbered = new LongAdder();
    private final LongAdder unknown = new LongAdder();

    /** @param count the series, numbered from 0 */
    SeriesLedger(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count: " + count + " (expected: >= 0)");
        }
        this.count = count;
        ids = new AtomicReferenceArray<>(count);
        firstDueMillis = filled(count);
        cancelAskedMillis = filled(count);
        cancelledMillis = filled(count);
        lastDueMillis = filled(count);
        missed = new AtomicIntegerArray(count);
    }

    private static AtomicLongArray filled(int count) {
        AtomicLongArray array = new AtomicLongArray(count);
        for (int i = 0; i < count; i++) {
            array.set(i, NONE);
        }
        return array;
    }

    /** Series {@code series} is registered as {@code id}, its first occurrence due at {@code firstDue}. */
    void scheduled(int series, String id, Instant firstDue) {
        firstDueMillis.set(series, firstDue.toEpochMilli());
        ids.set(series, id);
    }

    /** How many series: they are numbered from 0 to one less. */
    int size() {
        return count;
    }

    /** The server's id for series {@code series}, or null if it is not registered (or no such series). */
    String id(long series) {
        return series >= 0 && series < count ? ids.get((int) series) : null;
    }

    /** The cancel of {@code series} was asked for at {@code at}. */
    void cancelAsked(int series, Instant at) {
        cancelAskedMillis.set(series, at.toEpochMilli());
    }

    /** The cancel of {@code series} was acknowledged at {@code at}. */
    void cancelled(int series, Instant at) {
        cancelledMillis.set(series, at.toEpochMilli());
    }

    /**
     * Occurrence {@code occurrence} of {@code series}, due at {@code due}, arrived as chat
     * {@code chatId}, saying {@code missedBefore} occurrences before it were not sent.
     *
     * @return true for its first receipt, false for a duplicate or an unknown series
     */
    boolean receive(long series, String chatId, int occurrence, int missedBefore, Instant due) {
        String id = id(series);
        if (id == null) {
            unknown.increment();
            return false;
        }
        if (!received.add(chatId)) {
            duplicates.increment();
            return false;
        }
        if (!chatId.equals(id + "." + occurrence)) {
            misnumbered.increment();
        }
        missed.addAndGet((int) series, missedBefore);
        lastDueMillis.accumulateAndGet((int) series, due.toEpochMilli(), Math::max);
        return true;
    }

    /** Series noted as scheduled. */
    long scheduled() {
        long scheduled = 0;
        for (int i = 0; i < count; i++) {
            scheduled += ids.get(i) != null ? 1 : 0;
        }
        return scheduled;
    }

    /** Occurrences received, once each. */
    long received() {
        return received.size();
    }

    long duplicates() {
        return duplicates.sum();
    }

    long misnumbered() {
        return misnumbered.sum();
    }

    long unknown() {
        return unknown.sum();
    }

    /** The sum of every occurrence's count of occurrences missed before it. */
    long missed() {
        long sum = 0;
        for (int i = 0; i < count; i++) {
            sum += missed.get(i);
        }
        return sum;
    }

    /**
     * Occurrences that should have come and did not: of each series whose cancel was asked for,
     * those due at least {@code margin} before that (occurrence 1 at its first due time, each next
     * by {@code rule} in {@code zone}), not received, and not said by a later one to be missed.
     */
    long lost(Recurrence rule, ZoneId zone, Duration margin) {
        long lost = 0;
        for (int i = 0; i < count; i++) {
            String id = ids.get(i);
            long asked = cancelAskedMillis.get(i);
            if (id == null || asked == NONE) {
                continue;
            }
            Instant cutoff = Instant.ofEpochMilli(asked).minus(margin);
            Instant first = Instant.ofEpochMilli(firstDueMillis.get(i));
            long expected = 0;
            long found = 0;
            Optional<Instant> due = Optional.of(first);
            for (int occurrence = 1; due.isPresent() && !due.get().isAfter(cutoff); occurrence++) {
                expected++;
                found += received.contains(id + "." + occurrence) ? 1 : 0;
                due = rule.next(due.get(), zone, first);
            }
            lost += Math.max(0, expected - found - missed.get(i));
        }
        return lost;
    }

    /** Series with an occurrence received that was due after their cancel was acknowledged. */
    long firedAfterCancel() {
        long fired = 0;
        for (int i = 0; i < count; i++) {
            long cancelled = cancelledMillis.get(i);
            if (cancelled != NONE && lastDueMillis.get(i) > cancelled) {
                fired++;
            }
        }
        return fired;
    }
}
