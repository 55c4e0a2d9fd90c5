package dev.cim.client.core;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.wheel.DelayScheduler;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the client's {@link ScheduledJobs} in step with the server: after each login and every half
 * near window it lists the user's messages due within the window, and when a job fires it asks the
 * server to release the message. Owns the delay wheel the jobs run on, unless the program gave one.
 * Confined to the client's I/O thread.
 */
final class ScheduleSync {

    private static final Logger log = LoggerFactory.getLogger(ScheduleSync.class);

    /** A request the client makes by itself (its answer goes to no caller of the API). */
    interface Requester {
        CompletableFuture<Object> request(Pending.Kind kind, LongFunction<Envelope> build);
    }

    private final String user;
    private final Requester requester;
    private final Clock clock;
    private final EventLoop loop;
    private final DelayScheduler givenWheel;
    private final ScheduledJobs jobs;
    private DelayScheduler ownWheel;
    private ScheduledFuture<?> refresh;
    private boolean closed;

    /**
     * @param givenWheel the program's wheel, or null for one of the client's own, made when a first
     *                   job is due within the window
     * @param nearWindow how far ahead jobs are held
     */
    ScheduleSync(String user, Requester requester, Clock clock, Duration nearWindow, EventLoop loop,
            DelayScheduler givenWheel) {
        this.user = user;
        this.requester = requester;
        this.clock = clock;
        this.loop = loop;
        this.givenWheel = givenWheel;
        this.jobs = new ScheduledJobs(this::wheel, clock, nearWindow, loop, this::release);
    }

    /** Logged in: lists the near-term messages now, and from then on every half window. */
    void loggedIn() {
        refresh();
        if (refresh == null) {
            long every = Math.max(1000, jobs.window().toMillis() / 2);
            refresh = loop.scheduleAtFixedRate(this::refresh, every, every, TimeUnit.MILLISECONDS);
        }
    }

    /** One of the user's scheduled messages changed. */
    void changed(ScheduledChange.Kind kind, ScheduledMessage message, Optional<ScheduledMessage> next) {
        jobs.changed(kind, message, next);
    }

    /** The user's scheduled messages with a job here. */
    int heldJobs() {
        return jobs.size();
    }

    /** Stops refreshing and lets every job go (the server still holds the messages); stops the client's own wheel. */
    void close() {
        closed = true;
        if (refresh != null) {
            refresh.cancel(false);
        }
        jobs.close();
        if (ownWheel != null) {
            ownWheel.stopNow();
        }
    }

    /** Asks the server to send scheduled message {@code id} now: its job here fired. */
    private void release(String id) {
        if (!closed) {
            requester.request(Pending.Kind.RELEASE, rid -> Envelopes.release(rid, id))
                    .exceptionally(failure -> null); // sent already by the server or another terminal
        }
    }

    /** Asks the server for the messages due within the near window, to hold jobs for them. */
    @SuppressWarnings("unchecked")
    private void refresh() {
        if (closed) {
            return;
        }
        Instant until = clock.instant().plus(jobs.window());
        requester.request(Pending.Kind.LIST_SCHEDULED, id -> Envelopes.listScheduled(id, until.toEpochMilli()))
                .whenComplete((messages, failure) -> {
                    if (failure == null) {
                        jobs.nearTerm((List<ScheduledMessage>) messages, until);
                    } else if (!closed) { // failed by the close itself: nothing to report
                        log.warn("Could not list the scheduled messages of {}: {}", user, failure.getMessage());
                    }
                });
    }

    private DelayScheduler wheel() {
        if (givenWheel != null) {
            return givenWheel;
        }
        if (ownWheel == null) {
            ownWheel = DelayScheduler.builder().threadNamePrefix("cim-client-wheel").build();
        }
        return ownWheel;
    }
}
