package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.MessageIds;
import dev.cim.common.protocol.UserNames;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Schedule;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.server.chat.platform.Periodic;
import dev.cim.server.chat.platform.Platform;
import dev.cim.server.chat.platform.Recipients;
import dev.cim.server.chat.routing.Cluster;
import dev.cim.server.chat.routing.Router;
import dev.cim.server.chat.routing.Terminals;
import dev.cim.server.chat.session.Session;
import dev.cim.server.store.ScheduledStore;
import java.time.Duration;
import java.util.Optional;

/**
 * Scheduled messages, held by the server: registered durably when a client schedules one, listed,
 * edited and cancelled from any terminal of the user (every other terminal is told), and sent once
 * at their time, by the sender's client or by the server.
 *
 * <h3>Two timers, one send</h3>
 * Every scheduled message has two timers that may send it, and a claim in the store that lets only
 * the first do so:
 * <ul>
 *   <li><b>The sender's.</b> The sender's client holds a job on its own delay wheel for each of its
 *       user's messages due within its near window, and asks the server to release the message when
 *       the job fires ({@code Release}; {@link Claims#released}). This is the precise one: the
 *       client's clock, a wheel tick and a round trip.</li>
 *   <li><b>The server's.</b> The node holds a job on its own wheel for each message due within its
 *       window ({@link ServerTimers}); later ones wait in the store and are loaded as the window
 *       reaches them, by a scan every {@code scanInterval}, at start-up too ({@link ScheduleScan}).
 *       When the server's job fires and the sender has a session somewhere, the sender's client is
 *       given {@code releaseGrace} to do it first; else, or after the grace, the server sends it
 *       ({@link Claims#due}). So a message goes out even when no client of its sender runs.</li>
 * </ul>
 * Whoever comes first claims the message in the store, in one atomic step, for a lease; the other
 * finds it gone. With several nodes, each holds the near-term messages and the claim picks one. A
 * node that claims a message and dies before it is sent leaves a claim whose lease runs out; the
 * next scan makes it claimable again, and it is sent (the recipient's client drops it if it had
 * shown it already). A claimed message is routed like any other ({@link Firing}), then forgotten
 * and told to the user's terminals as sent or failed ({@link Finishing}). The sequence is drawn in
 * {@code docs/architecture.md}.
 *
 * <h3>Rate and memory</h3>
 * Registrations, claims and the forgetting of sent messages are batched per lane: a lane sends every
 * one queued since its last round trip at once, so a burst of messages due together, or thousands
 * of registrations a second, cost a round trip per batch. Only messages due within the window are
 * on the wheel, so the heap does not grow with how far ahead messages are scheduled.
 *
 * <h3>Parts</h3>
 * {@link ScheduleChecks} checks requests, {@link Registrations} registers them, {@link Changes}
 * lists, edits and cancels, {@link ServerTimers} and {@link ScheduleScan} are the server's timer,
 * {@link Claims}, {@link Firing} and {@link Finishing} send, {@link ScheduleNews} tells the user's
 * terminals. This class assembles them, serves the requests, and owns the scan's thread.
 */
public final class Scheduling implements ScheduledRequests, AutoCloseable {

    private final ScheduleSettings settings;
    private final java.time.Clock clock;
    private final ScheduleChecks checks;
    private final ServerTimers timers;
    private final ScheduleNews news;
    private final Registrations registrations;
    private final Changes changes;
    private final Claims claims;
    private final Firing firing;
    private final OnlineWaits waits;
    private final ScheduleScan scan;
    private final Periodic scanner;
    /** Held by this object so that the gauges it registered stay alive as long as it does. */
    private final ScheduleMetrics metrics;

    /**
     * @param recipients    who may be sent to: users with an account, the sender's groups
     * @param maxTextLength the most characters in a message's text
     */
    public Scheduling(ScheduledStore store, Recipients recipients, Router router, Cluster cluster, Platform platform,
            ScheduleSettings settings, int maxTextLength) {
        this.settings = settings;
        this.clock = platform.clock();
        this.checks = new ScheduleChecks(platform.clock(), settings.maxDelay(), maxTextLength);
        this.news = new ScheduleNews(new Terminals(cluster));
        // The timers tell the claims (through this::due, called only once a job fires), which hold
        // messages on the timers.
        this.timers = new ServerTimers(platform.wheel(), platform.clock(), settings, cluster, this::due);
        this.scan = new ScheduleScan(store, platform.clock(), settings, timers::holdAll);
        this.metrics = new ScheduleMetrics(platform.meters(), timers::size, scan::stored);
        this.changes = new Changes(store, platform, timers, news, recipients, settings);
        this.firing = new Firing(router, platform.clock(), metrics,
                new Finishing(store, platform, news, timers, settings));
        this.waits = new OnlineWaits(store, platform.lanes(), platform.clock(), settings.lease(), cluster, firing);
        this.registrations = new Registrations(store, recipients, platform,
                new Registrations.Parts(timers, news, waits), settings);
        this.claims = new Claims(store, platform.lanes(), platform.clock(), settings.lease(), timers, firing, scan::rescan);
        this.scanner = new Periodic("cim-scheduled-scan", scan::scan, Duration.ZERO, settings.scanInterval());
    }

    @Override
    public Duration maxDelay() {
        return settings.maxDelay();
    }

    /** Loads what is due within the window, and keeps doing so every scan interval. */
    public void start() {
        scanner.start();
    }

    /** Stops the scan, lets the server's jobs go, and lets the firer finish what it holds. */
    @Override
    public void close() {
        scanner.close();
        timers.close();
        firing.close();
    }

    @Override
    public void handle(Session session, Envelope request) {
        long id = request.getRequestId();
        switch (request.getKindCase()) {
            case SCHEDULE -> schedule(session, id, request.getSchedule());
            case EDIT -> {
                Optional<String> problem = checks.problem(request.getEdit());
                if (problem.isPresent()) {
                    Reply.to(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "not changed: " + problem.get(),
                            false));
                } else {
                    changes.edit(session, id, request.getEdit());
                }
            }
            case CANCEL -> changes.cancel(session, id, request.getCancel().getId());
            case LIST_SCHEDULED -> changes.list(session, id, request.getListScheduled().getDueBeforeMillis());
            case RELEASE -> claims.released(session, id, request.getRelease().getId());
            case SKIP -> changes.skip(session, id, request.getSkip().getId());
            case LIST_SENT -> changes.sent(session, id, request.getListSent().getLimit());
            default -> throw new IllegalArgumentException("not a scheduled-message request: " + request.getKindCase());
        }
    }

    private void schedule(Session session, long id, Schedule schedule) {
        if (id <= 0) {
            Reply.to(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST,
                    "a schedule request needs a request id above 0 (its sequence number)", false));
            return;
        }
        Optional<String> problem = checks.problem(schedule);
        if (problem.isPresent()) {
            Reply.to(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "not scheduled: " + problem.get(), false));
            return;
        }
        // A due time already past is now (it is sent at once): kept as it was asked, a time far in the
        // past would show as one, and order with the messages due now as if it came first.
        long now = clock.millis();
        Scheduled.Builder draft = Scheduled.newBuilder()
                .setId(MessageIds.of(session.origin(), id))
                .setRecipient(UserNames.canonical(schedule.getRecipient()))
                .setText(schedule.getText())
                .setRequestedMillis(Math.max(0, schedule.getRequestedMillis()));
        boolean noDeadline = schedule.getTiming().getWhenOnline() && schedule.getDueAtMillis() == 0;
        if (!noDeadline) { // a rule or a time of day replaces it once registered (Timings)
            draft.setDueAtMillis(Math.max(now, schedule.getDueAtMillis()));
        }
        if (schedule.hasTiming()) {
            draft.setTiming(schedule.getTiming());
        }
        registrations.add(session, id, draft.build());
    }

    @Override
    public void loggedIn(String user) {
        waits.recipientOnline(user);
    }

    private void due(String user, Scheduled message) {
        claims.due(user, message);
    }
}
