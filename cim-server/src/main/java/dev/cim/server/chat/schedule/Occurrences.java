package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.Timing;
import dev.cim.common.schedule.Occurrence;
import dev.cim.common.schedule.Recurrence;
import dev.cim.common.schedule.Series;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * A recurring message's occurrences, read from the message itself: its rule, zone, start and ends
 * are in its {@link Timing} and {@code series_start_millis}, its current occurrence is its
 * {@code occurrence} due at its due time. The store holds one message per series, moved to its next
 * occurrence each time one is done with ({@link Finishing}); each occurrence is sent under a chat id
 * of its own ({@link #chatId}), so that an occurrence sent twice (a node died before the series
 * moved on) is shown once, and two occurrences are never taken for one.
 */
final class Occurrences {

    /**
     * What to send now: the occurrence, and how many before it were missed.
     *
     * @param occurrence the message at the occurrence to send (its due time and number)
     * @param missed     occurrences due before it and not sent (the server was down)
     */
    record Due(Scheduled occurrence, int missed) {
    }

    private Occurrences() {
    }

    /** True for a recurring message. */
    static boolean recurring(Scheduled message) {
        return !message.getTiming().getEvery().isEmpty();
    }

    /** The id the occurrence is sent under: the message's own, and of a series, ".<occurrence>" after it. */
    static String chatId(Scheduled message) {
        return recurring(message) ? message.getId() + "." + message.getOccurrence() : message.getId();
    }

    /**
     * The first occurrence of a new series: {@code draft} (with its timing, checked) due at it, as
     * occurrence 1 of a series starting at {@code nowMillis}.
     *
     * @return empty when the series has no occurrence at all (it ends before its first)
     */
    static Optional<Scheduled> first(Scheduled draft, long nowMillis) {
        Scheduled started = draft.toBuilder().setSeriesStartMillis(nowMillis).build();
        return series(started).first().map(first -> at(started, first));
    }

    /** What to send of {@code claimed} at {@code nowMillis}: itself, or a series' latest occurrence due. */
    static Due latestDue(Scheduled claimed, long nowMillis) {
        if (!recurring(claimed) || claimed.getDueAtMillis() > nowMillis) {
            return new Due(claimed, 0);
        }
        Occurrence current = occurrence(claimed);
        Occurrence latest = series(claimed).latestDue(current, Instant.ofEpochMilli(nowMillis)).orElse(current);
        return new Due(at(claimed, latest), latest.index() - current.index());
    }

    /** The series of {@code occurrence} at its next occurrence; empty for a message that does not recur, or a series that ends. */
    static Optional<Scheduled> after(Scheduled occurrence) {
        if (!recurring(occurrence)) {
            return Optional.empty();
        }
        return series(occurrence).after(occurrence(occurrence)).map(next -> at(occurrence, next));
    }

    private static Occurrence occurrence(Scheduled message) {
        return new Occurrence(Math.max(1, message.getOccurrence()), Instant.ofEpochMilli(message.getDueAtMillis()));
    }

    private static Scheduled at(Scheduled message, Occurrence occurrence) {
        return message.toBuilder().setOccurrence(occurrence.index()).setDueAtMillis(occurrence.at().toEpochMilli())
                .build();
    }

    /** The series a recurring message belongs to; its rule and zone were checked when it was scheduled. */
    private static Series series(Scheduled message) {
        Timing timing = message.getTiming();
        ZoneId zone = timing.getZone().isEmpty() ? ZoneOffset.UTC : ZoneId.of(timing.getZone());
        return new Series(Recurrence.parse(timing.getEvery()), zone, Instant.ofEpochMilli(message.getSeriesStartMillis()),
                timing.getUntilMillis() == 0 ? null : Instant.ofEpochMilli(timing.getUntilMillis()), timing.getTimes());
    }
}
