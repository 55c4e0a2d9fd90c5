package dev.cim.client.core;

import dev.cim.common.wheel.DelayScheduler;
import dev.cim.common.wheel.Job;
import dev.cim.common.wheel.ScheduledJob;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The sender's side of scheduled messages: a job on the delay wheel for each of the user's scheduled
 * messages due within the near window, which asks the server to release the message when it fires.
 * The server holds every scheduled message durably and sends it itself if no client of the sender
 * releases it (closed, crashed, offline), so these jobs are for precision, not for safety; messages
 * due later wait on the server only, and come into the window at a later refresh.
 *
 * <p>Confined to the client's I/O thread; jobs fire on the wheel's workers and hop back to it.
 */
final class ScheduledJobs {

    private record Held(ScheduledMessage message, ScheduledJob job) {
    }

    /** Soonest first; due together, in the order scheduled. */
    private static final Comparator<Held> IN_DUE_ORDER = Comparator
            .comparing((Held h) -> h.message().dueAt())
            .thenComparingLong(h -> h.message().number());

    private final Supplier<DelayScheduler> wheel;
    private final Clock clock;
    private final Duration window;
    private final Executor loop;
    private final Consumer<String> release;
    private final Map<String, Held> held = new HashMap<>();

    /**
     * @param wheel   the delay wheel, asked for only when a first job is due within the window
     * @param window  how far ahead jobs are held
     * @param loop    the client's I/O thread
     * @param release asks the server to send a scheduled message now; called on {@code loop}
     */
    ScheduledJobs(Supplier<DelayScheduler> wheel, Clock clock, Duration window, Executor loop, Consumer<String> release) {
        this.wheel = wheel;
        this.clock = clock;
        this.window = window;
        this.loop = loop;
        this.release = release;
    }

    Duration window() {
        return window;
    }

    /**
     * The server's list of the user's messages due before {@code until}: holds a job for each, and
     * drops the jobs of messages due before then that are no longer on it (sent or cancelled while
     * this client was away).
     */
    void nearTerm(List<ScheduledMessage> messages, Instant until) {
        Set<String> listed = new HashSet<>();
        for (ScheduledMessage message : messages) {
            listed.add(message.id());
            hold(message);
        }
        held.values().removeIf(h -> {
            boolean gone = !listed.contains(h.message().id()) && h.message().dueAt().isBefore(until);
            if (gone) {
                h.job().cancel();
            }
            return gone;
        });
    }

    /** One of the user's scheduled messages changed. */
    void changed(ScheduledChange.Kind kind, ScheduledMessage message) {
        changed(kind, message, Optional.empty());
    }

    /** The same, for a recurring message whose series is now at {@code next}. */
    void changed(ScheduledChange.Kind kind, ScheduledMessage message, Optional<ScheduledMessage> next) {
        switch (kind) {
            case SCHEDULED, EDITED -> hold(message);
            case CANCELLED, SENT, FAILED, DROPPED, SKIPPED -> {
                drop(message.id());
                next.ifPresent(this::hold); // a recurring message goes on at its next occurrence
            }
        }
    }

    /** Scheduled messages with a job here. */
    int size() {
        return held.size();
    }

    /** Cancels every job; the server still holds the messages. */
    void close() {
        held.values().forEach(h -> h.job().cancel());
        held.clear();
    }

    private void hold(ScheduledMessage message) {
        Instant now = clock.instant();
        // A "when online" message is the server's to send, at its recipient's login.
        if (message.isWhenOnline() || message.dueAt().isAfter(now.plus(window))) {
            drop(message.id());
            return;
        }
        Held current = held.get(message.id());
        if (current != null && current.message().dueAt().equals(message.dueAt())) {
            held.put(message.id(), new Held(message, current.job()));
            return;
        }
        if (current != null) {
            current.job().cancel();
        }
        Duration delay = Duration.between(now, message.dueAt());
        String id = message.id();
        Instant dueAt = message.dueAt();
        ScheduledJob job = wheel.get().schedule(
                Job.of("release scheduled message #" + message.number() + " to " + message.recipient(),
                        () -> loop.execute(() -> fire(id, dueAt))),
                delay); // the wheel runs a job already due at once
        held.put(id, new Held(message, job));
    }

    private void drop(String id) {
        Held h = held.remove(id);
        if (h != null) {
            h.job().cancel();
        }
    }

    /**
     * The job of message {@code id} due at {@code dueAt} fired. A job whose message was moved while its
     * firing waited for this thread is stale: the message's new job releases it.
     *
     * <p>Jobs due together run on the wheel's workers in any order, and reach this thread in any
     * order: so the first to come releases every held message due by then, soonest first and, due
     * together, in the order they were scheduled (their numbers); the others find theirs gone. The
     * server routes releases in the order they come, so the recipient gets them in that order.
     */
    private void fire(String id, Instant dueAt) {
        Held h = held.get(id);
        if (h == null || !h.message().dueAt().equals(dueAt)) {
            return;
        }
        List<Held> due = new ArrayList<>();
        for (Held candidate : held.values()) {
            if (!candidate.message().dueAt().isAfter(dueAt)) {
                due.add(candidate);
            }
        }
        due.sort(IN_DUE_ORDER);
        for (Held next : due) {
            held.remove(next.message().id());
            next.job().cancel();
            release.accept(next.message().id());
        }
    }
}
