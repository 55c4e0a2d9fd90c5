package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.Timing;
import dev.cim.common.schedule.LocalTimes;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;

/**
 * Turns what a schedule request says about its time into the due time the store keeps, once the
 * zones of its sender and recipient are known (on the sender's lane, read from their accounts):
 * <ul>
 *   <li>the zone wall-clock times are read in is the request's, else the sender's account's, else
 *       UTC; it is kept with the message, so that its series and its display use it;</li>
 *   <li>a time of day ({@code at}) is the next time the clock shows it, in that zone, in the one
 *       it names, or in the recipient's ({@code their}; the sender's when the recipient set none);</li>
 *   <li>a recurring message is due at its first occurrence, the series starting now;</li>
 *   <li>a "when online" message is due at its deadline, or never ({@link Long#MAX_VALUE}).</li>
 * </ul>
 * A due time more than the longest delay ahead is refused, as for any scheduled message.
 */
final class Timings {

    /** The due time of a "when online" message without a deadline: never, by time. */
    static final long NEVER = Long.MAX_VALUE;

    /** A draft with its due time, or why it cannot be scheduled. */
    record Resolved(Scheduled draft, String problem) {
        static Resolved ok(Scheduled draft) {
            return new Resolved(draft, null);
        }

        static Resolved refused(String problem) {
            return new Resolved(null, problem);
        }
    }

    private Timings() {
    }

    /** True when {@link #resolve} needs the zones of the sender and recipient. */
    static boolean needsZones(Scheduled draft) {
        Timing timing = draft.getTiming();
        return timing.getZone().isEmpty() && (!timing.getAt().isEmpty() || !timing.getEvery().isEmpty())
                || "their".equalsIgnoreCase(timing.getAtZone());
    }

    /**
     * @param senderZone    the sender's account zone, or null
     * @param recipientZone the recipient's account zone, or null
     */
    static Resolved resolve(Scheduled draft, String senderZone, String recipientZone, long nowMillis,
            Duration maxDelay) {
        if (!draft.hasTiming()) {
            return Resolved.ok(draft);
        }
        Timing timing = draft.getTiming();
        if (timing.getWhenOnline()) {
            return Resolved.ok(draft.getDueAtMillis() > 0 ? draft : draft.toBuilder().setDueAtMillis(NEVER).build());
        }
        String zone = !timing.getZone().isEmpty() ? timing.getZone() : senderZone != null ? senderZone : "UTC";
        Scheduled.Builder resolved = draft.toBuilder();
        resolved.getTimingBuilder().setZone(LocalTimes.zone(zone).getId());
        Scheduled withZone = resolved.build();
        long due;
        if (!timing.getEvery().isEmpty()) {
            Optional<Scheduled> first = Occurrences.first(withZone, nowMillis);
            if (first.isEmpty()) {
                return Resolved.refused("the series ends before its first occurrence");
            }
            withZone = first.get().toBuilder().setRequestedMillis(first.get().getDueAtMillis() - nowMillis).build();
            due = withZone.getDueAtMillis();
        } else if (!timing.getAt().isEmpty()) {
            String atZone = timing.getAtZone();
            ZoneId in = "their".equalsIgnoreCase(atZone)
                    ? LocalTimes.zone(recipientZone != null ? recipientZone : zone)
                    : LocalTimes.zone(atZone.isEmpty() ? zone : atZone);
            try {
                due = LocalTimes.nextAt(timing.getAt(), in, Instant.ofEpochMilli(nowMillis)).toEpochMilli();
            } catch (IllegalArgumentException e) {
                return Resolved.refused(e.getMessage());
            }
            withZone = withZone.toBuilder().setDueAtMillis(due).setRequestedMillis(due - nowMillis).build();
        } else {
            return Resolved.ok(withZone);
        }
        if (due - nowMillis > maxDelay.toMillis()) {
            return Resolved.refused("the due time is more than " + maxDelay.toDays()
                    + " days ahead, the most the server accepts (cim.server.delays.max-delay)");
        }
        return Resolved.ok(withZone);
    }
}
