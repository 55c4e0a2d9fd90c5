package dev.cim.server.chat;

import dev.cim.server.chat.session.LocalUsers;
import dev.cim.server.chat.session.WriteCounter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;

/**
 * The chat core's meters, all named {@code cim.*} (Prometheus: {@code cim_*}): logins, messages in
 * and out, each message's outcome and routing time from its arrival to its receipt, and the inbox
 * each login found waiting. Sessions count what they write per flush, not per message, to keep the
 * counters off the per-message path; the two counts that are per message (in, and its outcome) are
 * {@link Tally tallies}.
 *
 * <p>Every message's outcome is counted; one in {@value #TIMED_ONE_IN}, chosen at random, is timed.
 * Timing every message took 3.0 % of the server's samples in a closed loop (async-profiler; this
 * class's meters 6.0 % in all): two clock reads and an allocation per message, and in the timer two
 * more clock reads and three histograms to update. A sample keeps the histogram's quantiles (at
 * 100,000 messages a second, 6,250 a second are timed) at a sixteenth of the cost.
 */
final class ChatMetrics {

    /** Counts, and may time, one message from its arrival. */
    interface Timing {
        void done(boolean stored, boolean failed);
    }

    /** One message in this many is timed. */
    static final int TIMED_ONE_IN = 16;

    private final Counter loginsAccepted;
    private final Counter loginsCreated;
    private final Counter loginsRefused;
    private final Counter loginsAbandoned;
    private final Counter logouts;
    private final Counter rateLimited;
    private final Tally received;
    private final Counter sentLive;
    private final Counter sentFromInbox;
    private final Timer delivered;
    private final Timer stored;
    private final Timer failed;
    private final Tally routedDelivered;
    private final Tally routedStored;
    private final Tally routedFailed;
    /** A message that is counted and not timed: one for all, nothing allocated per message. */
    private final Timing counted = this::count;
    private final DistributionSummary backlog;

    private final LongSupplier nanoTime;

    /**
     * @param nanoTime a monotonic clock, for the routing times
     */
    ChatMetrics(MeterRegistry registry, LocalUsers users, LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        loginsAccepted = Counter.builder("cim.logins").tag("outcome", "accepted")
                .description("logins accepted").register(registry);
        loginsCreated = Counter.builder("cim.logins").tag("outcome", "created")
                .description("logins that created their account").register(registry);
        loginsRefused = Counter.builder("cim.logins").tag("outcome", "refused")
                .description("logins refused").register(registry);
        loginsAbandoned = Counter.builder("cim.logins").tag("outcome", "abandoned")
                .description("logins not checked: their connection had ended while they waited").register(registry);
        rateLimited = Counter.builder("cim.messages.refused").tag("reason", "rate-limited")
                .description("messages refused because their sender went over the rate limit").register(registry);
        logouts = Counter.builder("cim.sessions.closed").description("sessions closed").register(registry);
        received = Tally.register(registry, "cim.messages.in", "chat messages received from clients", "kind", "chat");
        sentLive = Counter.builder("cim.messages.out").tag("kind", "live")
                .description("messages written to recipients' sessions as they were routed").register(registry);
        sentFromInbox = Counter.builder("cim.messages.out").tag("kind", "inbox")
                .description("messages written to recipients' sessions from their inbox").register(registry);
        delivered = routing(registry, "delivered");
        stored = routing(registry, "stored");
        failed = routing(registry, "failed");
        routedDelivered = routed(registry, "delivered");
        routedStored = routed(registry, "stored");
        routedFailed = routed(registry, "failed");
        backlog = DistributionSummary.builder("cim.inbox.backlog").baseUnit("messages")
                .description("messages a session found waiting in its user's inbox at login (read before it went live)")
                .publishPercentileHistogram()
                .minimumExpectedValue(1.0)
                .maximumExpectedValue(100_000.0)
                .register(registry);
        gauge(registry, "cim.users", "users with a session on this node", users, LocalUsers::userCount);
        gauge(registry, "cim.sessions", "sessions on this node", users, u -> u.sessions().size());
    }

    private static Timer routing(MeterRegistry registry, String outcome) {
        return Timer.builder("cim.routing")
                .description("time from a message's arrival to its receipt (every recipient session "
                        + "acknowledged it, or it was stored), of one message in " + TIMED_ONE_IN + " chosen at random")
                .tag("outcome", outcome)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
    }

    private static Tally routed(MeterRegistry registry, String outcome) {
        return Tally.register(registry, "cim.messages.routed", "chat messages whose receipt went out: delivered to "
                + "every recipient session, stored in an inbox, or failed", "outcome", outcome);
    }

    private static <T> void gauge(MeterRegistry registry, String name, String description, T target,
            ToDoubleFunction<T> value) {
        Gauge.builder(name, target, value).description(description).register(registry);
    }

    void loggedIn(boolean created) {
        (created ? loginsCreated : loginsAccepted).increment();
    }

    void loginRefused() {
        loginsRefused.increment();
    }

    void loginAbandoned() {
        loginsAbandoned.increment();
    }

    void rateLimited() {
        rateLimited.increment();
    }

    void loggedOut() {
        logouts.increment();
    }

    void received() {
        received.increment();
    }

    /** What sessions report their writes to. */
    WriteCounter written() {
        return new WriteCounter() {
            @Override
            public void written(long live, long fromInbox) {
                if (live > 0) {
                    sentLive.increment(live);
                }
                if (fromInbox > 0) {
                    sentFromInbox.increment(fromInbox);
                }
            }

            @Override
            public void caughtUp(long messages) {
                backlog.record(messages);
            }
        };
    }

    /** The timing of the messages not timed, only counted: the same for all. */
    Timing untimed() {
        return counted;
    }

    /** Starts counting a message now, and timing it if it is among the sample; else {@link #untimed()}. */
    Timing timer() {
        if (ThreadLocalRandom.current().nextInt(TIMED_ONE_IN) != 0) {
            return counted;
        }
        long start = nanoTime.getAsLong();
        return (wasStored, wasFailed) -> {
            count(wasStored, wasFailed);
            (wasFailed ? failed : wasStored ? stored : delivered).record(nanoTime.getAsLong() - start,
                    TimeUnit.NANOSECONDS);
        };
    }

    private void count(boolean wasStored, boolean wasFailed) {
        (wasFailed ? routedFailed : wasStored ? routedStored : routedDelivered).increment();
    }
}
