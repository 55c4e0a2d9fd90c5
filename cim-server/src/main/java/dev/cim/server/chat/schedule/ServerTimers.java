package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.wheel.DelayScheduler;
import dev.cim.common.wheel.Job;
import dev.cim.common.wheel.ScheduledJob;
import dev.cim.server.chat.routing.Cluster;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's own timers for scheduled messages: a job on the node's delay wheel for each message
 * due within the window, which tells {@code due} when it fires. When the sender is online somewhere,
 * its client is given {@code releaseGrace} to send the message first: the job is put back for that
 * long, once. Only messages due within the window are held, so the heap does not grow with how far
 * ahead messages are scheduled. Thread-safe.
 *
 * <h3>Order</h3>
 * Jobs due together run on the wheel's workers in any order. So the first of a user's jobs to fire
 * gives {@code due} every message of that user held and due by then, soonest first and, due
 * together, in the order they were scheduled (their numbers); the jobs of the others, firing
 * after, find them gone. It hands them over under the user's lock, so that a job of a message due a
 * millisecond later, firing at once on another worker, cannot slip its message in between. {@code
 * due} queues them in that order on the user's lane, which claims and sends them in that order.
 */
final class ServerTimers {

    private static final Logger log = LoggerFactory.getLogger(ServerTimers.class);

    private final DelayScheduler wheel;
    private final Clock clock;
    private final Duration window;
    private final Duration releaseGrace;
    private final Cluster cluster;
    private final BiConsumer<String, Scheduled> due;
    /** A message held, and its job. */
    private record Held(Scheduled message, ScheduledJob job) {
    }

    private static final Comparator<Held> IN_DUE_ORDER = Comparator
            .comparingLong((Held h) -> h.message().getDueAtMillis())
            .thenComparingLong(h -> h.message().getNumber());

    /** Each user's held messages by id; a user's map is changed only under its own lock. */
    private final ConcurrentHashMap<String, Map<String, Held>> held = new ConcurrentHashMap<>();
    private final Set<String> graced = ConcurrentHashMap.newKeySet();

    /**
     * @param due told, with the user and the message, when a held message's job fires; called under the user's
     *            lock, so it must not block (it queues work on a lane)
     */
    ServerTimers(DelayScheduler wheel, Clock clock, ScheduleSettings settings, Cluster cluster,
            BiConsumer<String, Scheduled> due) {
        this.wheel = wheel;
        this.clock = clock;
        this.window = settings.window();
        this.releaseGrace = settings.releaseGrace();
        this.cluster = cluster;
        this.due = due;
    }

    /**
     * Holds a job for {@code message} of {@code user} if it is due within the window (one due
     * already runs at once); a job held before for it is replaced, and one no longer in the window
     * is let go.
     */
    void hold(String user, Scheduled message) {
        long now = clock.millis();
        long dueAt = message.getDueAtMillis();
        // Compared before subtracting: a due time far in the past must not wrap around into the future.
        long delay = dueAt <= now ? 0 : dueAt - now;
        if (delay > window.toMillis()) {
            unhold(user, message.getId());
            return;
        }
        put(user, message, Duration.ofMillis(delay), "send scheduled message " + message.getId() + " of " + user);
    }

    /**
     * Holds {@code messages} of {@code user} as {@link #hold} does each, all before any of their jobs
     * can run: a job due already waits for the lot, and then sends those due in their order. (Held one
     * by one, the first job due could fire between two holds and send the messages held so far
     * before earlier-numbered ones held after it.)
     */
    void holdAll(String user, List<Scheduled> messages) {
        Map<String, Held> mine = held.computeIfAbsent(user, u -> new HashMap<>());
        synchronized (mine) { // the lock each job's firing takes; held again, re-entrantly, by each hold
            for (Scheduled message : messages) {
                hold(user, message);
            }
        }
    }

    /** Holds {@code message} with a job firing after {@code delay}, in place of any held before. */
    private void put(String user, Scheduled message, Duration delay, String what) {
        String id = message.getId();
        Held previous;
        Map<String, Held> mine = held.computeIfAbsent(user, u -> new HashMap<>());
        synchronized (mine) {
            // Under the lock its firing takes too: a job due already runs at once, on a worker, and
            // must find the message held.
            ScheduledJob job = wheel.schedule(Job.of(what, () -> fired(user, id)), delay);
            previous = mine.put(id, new Held(message, job));
        }
        if (previous != null) {
            previous.job().cancel();
        }
    }

    /** Lets the job of message {@code id} of {@code user} go, if there is one. */
    void unhold(String user, String id) {
        graced.remove(key(user, id));
        Held gone = null;
        Map<String, Held> mine = held.get(user);
        if (mine != null) {
            synchronized (mine) {
                gone = mine.remove(id);
            }
        }
        if (gone != null) {
            gone.job().cancel();
        }
    }

    /** A job fired: every message of {@code user} held and due by this one's time goes, in order. */
    private void fired(String user, String id) {
        Map<String, Held> mine = held.get(user);
        if (mine == null) {
            return;
        }
        List<Held> due = new ArrayList<>();
        synchronized (mine) {
            Held fired = mine.get(id);
            if (fired == null) {
                return; // given to due with an earlier one, or let go
            }
            long until = fired.message().getDueAtMillis();
            for (Held candidate : mine.values()) {
                if (candidate.message().getDueAtMillis() <= until) {
                    due.add(candidate);
                }
            }
            due.sort(IN_DUE_ORDER);
            for (Held next : due) {
                mine.remove(next.message().getId());
                // Handed over under the lock: a job of a message due a little later, firing on
                // another worker meanwhile, takes what is left only after these are all handed over.
                this.due.accept(user, next.message());
            }
        }
        for (Held next : due) {
            next.job().cancel(); // its own job, if it has not run yet, finds the message gone
        }
    }

    /**
     * On the user's lane, when the job fired: true when the sender is online and gets the grace to
     * send it first (the job fires again after it); false when the server sends it now.
     */
    boolean leftToSender(String user, Scheduled message) {
        String id = message.getId();
        String key = key(user, id);
        try {
            if (!graced.contains(key) && cluster.onlineAnywhere(user)) {
                graced.add(key);
                put(user, message, releaseGrace, "send scheduled message " + id + " of " + user + " after the grace");
                return true;
            }
        } catch (RuntimeException e) {
            log.warn("Could not send scheduled message {} of {}; the next scan retries: {}", id, user, e.toString());
            return true;
        }
        graced.remove(key);
        return false;
    }

    /** Jobs held. */
    int size() {
        int size = 0;
        for (Map<String, Held> mine : held.values()) {
            synchronized (mine) {
                size += mine.size();
            }
        }
        return size;
    }

    /** Lets every job go. */
    void close() {
        for (Map<String, Held> mine : held.values()) {
            synchronized (mine) {
                mine.values().forEach(h -> h.job().cancel());
                mine.clear();
            }
        }
    }

    private static String key(String user, String id) {
        return user + '/' + id;
    }
}
