package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.wheel.DelayScheduler;
import dev.cim.common.wheel.Job;
import dev.cim.common.wheel.ScheduledJob;
import dev.cim.server.chat.routing.Cluster;
import java.time.Clock;
import java.time.Duration;
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
 */
final class ServerTimers {

    private static final Logger log = LoggerFactory.getLogger(ServerTimers.class);

    private final DelayScheduler wheel;
    private final Clock clock;
    private final Duration window;
    private final Duration releaseGrace;
    private final Cluster cluster;
    private final BiConsumer<String, String> due;
    private final ConcurrentHashMap<String, ScheduledJob> held = new ConcurrentHashMap<>();
    private final Set<String> graced = ConcurrentHashMap.newKeySet();

    /**
     * @param due told, with the user and the message id, when a held message's job fires
     */
    ServerTimers(DelayScheduler wheel, Clock clock, ScheduleSettings settings, Cluster cluster,
            BiConsumer<String, String> due) {
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
        String key = key(user, message.getId());
        long now = clock.millis();
        long dueAt = message.getDueAtMillis();
        // Compared before subtracting: a due time far in the past must not wrap around into the future.
        long delay = dueAt <= now ? 0 : dueAt - now;
        if (delay > window.toMillis()) {
            unhold(user, message.getId());
            return;
        }
        ScheduledJob job = wheel.schedule(Job.of("send scheduled message " + message.getId() + " of " + user,
                () -> fired(user, message.getId())), Duration.ofMillis(delay));
        ScheduledJob previous = held.put(key, job);
        if (previous != null) {
            previous.cancel();
        }
    }

    /** Lets the job of message {@code id} of {@code user} go, if there is one. */
    void unhold(String user, String id) {
        String key = key(user, id);
        graced.remove(key);
        ScheduledJob job = held.remove(key);
        if (job != null) {
            job.cancel();
        }
    }

    private void fired(String user, String id) {
        held.remove(key(user, id));
        due.accept(user, id);
    }

    /**
     * On the user's lane, when the job fired: true when the sender is online and gets the grace to
     * send it first (the job fires again after it); false when the server sends it now.
     */
    boolean leftToSender(String user, String id) {
        String key = key(user, id);
        try {
            if (!graced.contains(key) && cluster.onlineAnywhere(user)) {
                graced.add(key);
                ScheduledJob retry = wheel.schedule(Job.of("send scheduled message " + id + " of " + user
                        + " after the grace", () -> fired(user, id)), releaseGrace);
                held.put(key, retry);
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
        return held.size();
    }

    /** Lets every job go. */
    void close() {
        held.values().forEach(ScheduledJob::cancel);
        held.clear();
    }

    private static String key(String user, String id) {
        return user + '/' + id;
    }
}
