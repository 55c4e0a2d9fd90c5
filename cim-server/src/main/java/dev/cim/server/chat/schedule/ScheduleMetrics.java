package dev.cim.server.chat.schedule;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Scheduling's meters: the messages held on this node's wheel and in the store, and how late each
 * message was sent, by whom ({@code cim.scheduled.*}).
 */
final class ScheduleMetrics {

    private final Timer senderLateness;
    private final Timer serverLateness;

    /**
     * @param held   scheduled messages on this node's wheel
     * @param stored scheduled messages in the store, all users, as of the last scan
     */
    ScheduleMetrics(MeterRegistry meters, LongSupplier held, LongSupplier stored) {
        senderLateness = lateness(meters, "sender");
        serverLateness = lateness(meters, "server");
        // Strong references: a gauge holds its object weakly, and these lambdas have no other holder.
        Gauge.builder("cim.scheduled.held", held, LongSupplier::getAsLong).strongReference(true)
                .description("scheduled messages on this node's delay wheel (due within the window)").register(meters);
        Gauge.builder("cim.scheduled.stored", stored, LongSupplier::getAsLong).strongReference(true)
                .description("scheduled messages held in the store, all users (as of the last scan)").register(meters);
    }

    private static Timer lateness(MeterRegistry meters, String firedBy) {
        return Timer.builder("cim.scheduled.lateness")
                .description("how long after its due time a scheduled message was sent")
                .tag("fired_by", firedBy)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(meters);
    }

    /** A message due at {@code dueAtMillis} was sent at {@code nowMillis}, by the server or its sender's client. */
    void sent(long dueAtMillis, long nowMillis, boolean byServer) {
        (byServer ? serverLateness : senderLateness).record(Math.max(0, nowMillis - dueAtMillis), TimeUnit.MILLISECONDS);
    }
}
