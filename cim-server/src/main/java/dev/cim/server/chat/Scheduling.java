package dev.cim.server.chat;

import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.MessageIds;
import dev.cim.common.protocol.UserNames;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.Edit;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.NodeMessage;
import dev.cim.common.protocol.proto.Schedule;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.ScheduledChange;
import dev.cim.common.wheel.DelayScheduler;
import dev.cim.common.wheel.Job;
import dev.cim.common.wheel.ScheduledJob;
import dev.cim.server.store.NodeBus;
import dev.cim.server.store.PresenceStore;
import dev.cim.server.store.ScheduledStore;
import dev.cim.server.store.StoreFullException;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scheduled messages, held by the server: registered durably when a client schedules one, listed,
 * edited and cancelled from any terminal of the user (every other terminal is told), and sent once
 * at their time, by the sender's client or by the server.
 *
 * <h3>Who sends it</h3>
 * The sender's client holds a job for each of its user's messages due within its near window and
 * asks the server to release the message when the job fires. The server holds one too, on its own
 * {@link DelayScheduler}, for each message due within its window ({@code window}; the rest waits in
 * the store and is loaded as its window comes, by a scan every {@code scanInterval}, at start-up
 * too). When the server's job fires and the sender has a session somewhere, it gives the sender's
 * client {@code releaseGrace} to do it first. Whoever comes first claims the message in the store,
 * in one atomic step; the other finds it gone. With several nodes, each holds the near-term
 * messages and the claim picks one. A node that claims a message and dies before it is sent leaves
 * a claim whose lease runs out; the next scan makes it claimable again, and it is sent (the
 * recipient's client drops it if it had shown it already).
 *
 * <h3>Memory</h3>
 * Only messages due within the window are on the wheel, so the heap does not grow with how far
 * ahead messages are scheduled.
 *
 * <h3>Rate</h3>
 * Registrations, claims and the forgetting of sent messages are {@link LaneBatches batched} per
 * lane: a lane sends every one queued since its last round trip at once, so a burst of messages
 * due together, or thousands of registrations a second, cost a round trip per batch, not each.
 */
final class Scheduling implements ScheduledRequests, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Scheduling.class);
    /** Scheduled messages per listing frame: 200 of up to 4,000 characters stay under 1 MB. */
    private static final int PER_FRAME = 100;
    private static final int SCAN_LIMIT = 100_000;
    /** Recipients remembered as having an account (about 100 bytes each). */
    private static final int KNOWN_USERS = 100_000;

    /**
     * @param maxDelay     the longest delay accepted
     * @param maxPerUser   the most scheduled messages one user may have
     * @param window       how far ahead the server holds jobs
     * @param scanInterval how often the store is read for messages coming into the window
     * @param releaseGrace how long the server waits for an online sender's client to release a message
     * @param lease        how long a claim lasts before another node may send the message
     */
    record Settings(Duration maxDelay, int maxPerUser, Duration window, Duration scanInterval, Duration releaseGrace,
            Duration lease) {
    }

    /** A schedule request to answer once its message is registered. */
    private record Registering(Session session, long requestId, Scheduled draft) {
    }

    /**
     * A message to claim for sending.
     *
     * @param releasedBy the session whose client asked to send it (answered as request {@code requestId}),
     *                   or null when the server's own job fired
     */
    private record Claiming(String user, String id, Session releasedBy, long requestId) {
    }

    /** A message routed (or refused: {@code failure}), to forget and tell the user's terminals about. */
    private record Finished(String user, Scheduled message, Tracker.Failure failure, Session releasedBy,
            long requestId) {
    }

    private final ScheduledStore store;
    private final UserLanes lanes;
    private final Router router;
    private final LocalUsers users;
    private final PresenceStore presence;
    private final NodeBus bus;
    private final DelayScheduler wheel;
    private final Clock clock;
    private final Settings settings;
    private final int maxTextLength;
    private final IntSupplier peers;
    private final KnownUsers accounts;
    private final ConcurrentHashMap<String, ScheduledJob> held = new ConcurrentHashMap<>();
    private final Set<String> graced = ConcurrentHashMap.newKeySet();
    private final ExecutorService firer;
    private final LaneBatches<Registering> registrations;
    private final LaneBatches<Claiming> claims;
    private final LaneBatches<Finished> finished;
    private final RouteGate gate = new RouteGate();
    private final Timer senderLateness;
    private final Timer serverLateness;
    private ScheduledExecutorService scanner;
    private volatile long storedCount;
    /** Where the last scan read up to: later scans read from there (confined to the scanner thread). */
    private long scannedUntil = Long.MIN_VALUE;
    /**
     * Set when a claim failed (Redis unreachable, a script error): the message is no longer held and
     * lies before {@link #scannedUntil}, so the next scan reads the whole window again.
     */
    private final AtomicBoolean rescan = new AtomicBoolean();

    Scheduling(ScheduledStore store, UserLanes lanes, Router router, LocalUsers users, PresenceStore presence, NodeBus bus,
            DelayScheduler wheel, Clock clock, Settings settings, int maxTextLength, IntSupplier peers,
            Function<Collection<String>, Set<String>> accountsExisting, MeterRegistry meters) {
        this.store = store;
        this.lanes = lanes;
        this.router = router;
        this.users = users;
        this.presence = presence;
        this.bus = bus;
        this.wheel = wheel;
        this.clock = clock;
        this.settings = settings;
        this.maxTextLength = maxTextLength;
        this.peers = peers;
        this.accounts = new KnownUsers(accountsExisting, KNOWN_USERS);
        this.firer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "cim-scheduled-firer");
            t.setDaemon(true);
            return t;
        });
        this.registrations = new LaneBatches<>(lanes, this::registerAll);
        this.claims = new LaneBatches<>(lanes, this::claimAll);
        this.finished = new LaneBatches<>(lanes, this::finishedAll);
        this.senderLateness = lateness(meters, "sender");
        this.serverLateness = lateness(meters, "server");
        Gauge.builder("cim.scheduled.held", held, ConcurrentHashMap::size)
                .description("scheduled messages on this node's delay wheel (due within the window)").register(meters);
        Gauge.builder("cim.scheduled.stored", this, s -> s.storedCount)
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

    @Override
    public Duration maxDelay() {
        return settings.maxDelay();
    }

    /** Loads what is due within the window, and keeps doing so every scan interval. */
    synchronized void start() {
        if (scanner != null) {
            return;
        }
        scanner = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cim-scheduled-scan");
            t.setDaemon(true);
            return t;
        });
        long every = settings.scanInterval().toMillis();
        scanner.scheduleWithFixedDelay(this::scan, 0, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void close() {
        if (scanner != null) {
            scanner.shutdownNow();
            scanner = null;
        }
        held.values().forEach(ScheduledJob::cancel);
        held.clear();
        firer.shutdown();
    }

    /**
     * One scan: frees expired claims, and holds the messages that came into the window since the
     * last scan (at start-up, all up to the window's end). A message already in the window when it
     * was registered or moved is held by the node that did so; should that node die before sending
     * it, it is overdue here once a lease has passed, and the scan holds it too.
     */
    void scan() {
        long now = clock.millis();
        long until = now + settings.window().toMillis();
        long after = rescan.getAndSet(false) ? Long.MIN_VALUE : scannedUntil;
        long overdue = now - settings.lease().toMillis();
        // What a lease has passed over is read again: among it, the messages of claims freed by this scan.
        long overdueUntil = after == Long.MIN_VALUE ? Long.MIN_VALUE : Math.min(overdue, after);
        ScheduledStore.Scan scan;
        try {
            // One round trip for all buckets: a scan read bucket by bucket (three round trips each,
            // 768 by default, and 256 more to count) took the cores from the chat traffic in bursts
            // every scan interval.
            scan = store.scanAll(now, after, until, overdueUntil, SCAN_LIMIT);
        } catch (RuntimeException e) {
            log.warn("Could not scan the scheduled messages: {}", rootMessage(e));
            if (after == Long.MIN_VALUE) {
                rescan.set(true);
            }
            return; // the next scan reads from the same point
        }
        if (scan.freed() > 0) {
            log.warn("{} scheduled messages claimed by a node that did not send them are claimable again", scan.freed());
        }
        for (ScheduledStore.Entry entry : scan.entries()) {
            hold(entry.user(), entry.message());
        }
        scannedUntil = Math.max(after, until);
        storedCount = scan.stored();
    }

    // Requests.

    @Override
    public void handle(Session session, Envelope request) {
        long id = request.getRequestId();
        switch (request.getKindCase()) {
            case SCHEDULE -> schedule(session, id, request.getSchedule());
            case EDIT -> edit(session, id, request.getEdit());
            case CANCEL -> onLane(session, id, () -> {
                Optional<Scheduled> cancelled = store.cancel(session.user, request.getCancel().getId());
                if (cancelled.isEmpty()) {
                    answer(session, notFound(id, request.getCancel().getId()));
                    return;
                }
                unhold(session.user, cancelled.get().getId());
                changed(session, id, ScheduledChange.Kind.CANCELLED, cancelled.get());
            });
            case LIST_SCHEDULED -> onLane(session, id, () -> list(session, id, request.getListScheduled().getDueBeforeMillis()));
            case RELEASE -> claims.add(session.user, new Claiming(session.user, request.getRelease().getId(), session, id));
            default -> throw new IllegalArgumentException("not a scheduled-message request: " + request.getKindCase());
        }
    }

    private void schedule(Session session, long id, Schedule schedule) {
        if (id <= 0) {
            answer(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST,
                    "a schedule request needs a request id above 0 (its sequence number)", false));
            return;
        }
        Optional<String> problem = ChatRules.recipientProblem(schedule.getRecipient())
                .or(() -> ChatRules.textProblem(schedule.getText(), maxTextLength))
                .or(() -> dueProblem(schedule.getDueAtMillis()));
        if (problem.isPresent()) {
            answer(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "not scheduled: " + problem.get(), false));
            return;
        }
        Scheduled draft = Scheduled.newBuilder()
                .setId(MessageIds.of(session.origin.origin, id))
                .setRecipient(UserNames.canonical(schedule.getRecipient()))
                .setText(schedule.getText())
                .setDueAtMillis(schedule.getDueAtMillis())
                .setRequestedMillis(Math.max(0, schedule.getRequestedMillis()))
                .build();
        registrations.add(session.user, new Registering(session, id, draft));
    }

    /**
     * On a lane: refuses the drafts to users without an account (they would fail only at their time,
     * perhaps months later), registers the rest in one round trip, then answers each.
     */
    private void registerAll(List<Registering> batch) {
        Replies replies = new Replies();
        List<Registering> registering = new ArrayList<>(batch.size());
        List<ScheduledStore.Draft> drafts = new ArrayList<>(batch.size());
        List<ScheduledStore.Registration> results;
        try {
            Set<String> recipients = new HashSet<>();
            for (Registering r : batch) {
                String to = r.draft().getRecipient();
                if (!ChatRules.EVERYONE.equals(to) && !to.equals(r.session().user)) {
                    recipients.add(to);
                }
            }
            Set<String> unknown = recipients.isEmpty() ? Set.of() : accounts.withoutAccount(recipients);
            for (Registering r : batch) {
                String to = r.draft().getRecipient();
                if (unknown.contains(to)) {
                    replies.add(r.session(), Envelopes.error(r.requestId(), ErrorReply.Code.UNKNOWN_USER,
                            "not scheduled: no user named " + to, false));
                } else {
                    registering.add(r);
                    drafts.add(new ScheduledStore.Draft(r.session().user, r.draft()));
                }
            }
            results = drafts.isEmpty() ? List.of() : store.registerAll(drafts, settings.maxPerUser());
        } catch (RuntimeException e) {
            batch.forEach(r -> failed(r.session(), r.requestId(), e));
            return;
        }
        for (int i = 0; i < registering.size(); i++) {
            registered(replies, registering.get(i).session(), registering.get(i).requestId(), results.get(i));
        }
        replies.send();
    }

    private void registered(Replies replies, Session session, long id, ScheduledStore.Registration registration) {
        if (registration instanceof ScheduledStore.Registration.Failed failure) {
            failed(session, id, failure.cause());
            return;
        }
        if (registration instanceof ScheduledStore.Registration.TooMany tooMany) {
            replies.add(session, Envelopes.error(id, ErrorReply.Code.TOO_MANY_SCHEDULED, "not scheduled: you have "
                    + tooMany.limit() + " scheduled messages, the most the server keeps for one user "
                    + "(cim.server.delays.max-per-user); cancel some first", false));
            return;
        }
        Scheduled message = registration instanceof ScheduledStore.Registration.Created created
                ? created.message() : ((ScheduledStore.Registration.Existing) registration).message();
        hold(session.user, message);
        if (registration instanceof ScheduledStore.Registration.Created) {
            changed(replies, session, id, ScheduledChange.Kind.SCHEDULED, message);
        } else {
            replies.add(session, Envelopes.scheduledChange(id, ScheduledChange.Kind.SCHEDULED, message));
        }
    }

    private void edit(Session session, long id, Edit edit) {
        Optional<String> problem = edit.getText().isEmpty() ? Optional.empty()
                : ChatRules.textProblem(edit.getText(), maxTextLength);
        if (problem.isEmpty() && edit.getDueAtMillis() != 0) {
            problem = dueProblem(edit.getDueAtMillis()).or(() -> edit.getDueAtMillis() < clock.millis()
                    ? Optional.of("that time has passed") : Optional.empty());
        }
        if (problem.isPresent()) {
            answer(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "not changed: " + problem.get(), false));
            return;
        }
        onLane(session, id, () -> {
            Optional<Scheduled> edited = store.edit(session.user, edit.getId(), edit.getText(), edit.getDueAtMillis(),
                    edit.getRequestedMillis());
            if (edited.isEmpty()) {
                answer(session, notFound(id, edit.getId()));
                return;
            }
            hold(session.user, edited.get());
            changed(session, id, ScheduledChange.Kind.EDITED, edited.get());
        });
    }

    private Optional<String> dueProblem(long dueAtMillis) {
        long latest = clock.millis() + settings.maxDelay().toMillis();
        if (dueAtMillis > latest) {
            return Optional.of("the due time is more than " + settings.maxDelay().toDays()
                    + " days ahead, the most the server accepts (cim.server.delays.max-delay)");
        }
        return Optional.empty();
    }

    private void list(Session session, long id, long dueBefore) {
        List<Scheduled> all = store.list(session.user);
        List<Scheduled> chosen = dueBefore == 0 ? all
                : all.stream().filter(m -> m.getDueAtMillis() < dueBefore).toList();
        int total = chosen.size();
        List<Envelope> frames = new ArrayList<>();
        if (total == 0) {
            frames.add(Envelopes.scheduledList(id, List.of(), false, 0));
        }
        for (int from = 0; from < total; from += PER_FRAME) {
            int to = Math.min(total, from + PER_FRAME);
            frames.add(Envelopes.scheduledList(id, chosen.subList(from, to), to < total, total));
        }
        session.connection.owner().execute(() -> {
            if (session.connection.isOpen()) {
                frames.forEach(session.connection::write);
                session.connection.flush();
            }
        });
    }

    /**
     * On a lane: claims a batch of messages in one round trip (of those the server's jobs fired, the
     * ones not left to their senders), then sends each one claimed.
     */
    private void claimAll(List<Claiming> batch) {
        List<Claiming> asking = new ArrayList<>(batch.size());
        for (Claiming c : batch) {
            if (c.releasedBy() != null || !leftToSender(c.user(), c.id())) {
                asking.add(c);
            }
        }
        if (asking.isEmpty()) {
            return;
        }
        List<ScheduledStore.Ref> refs = new ArrayList<>(asking.size());
        asking.forEach(c -> refs.add(new ScheduledStore.Ref(c.user(), c.id())));
        long now = clock.millis();
        List<ScheduledStore.Claim> results;
        try {
            results = store.claimAll(refs, now, now + settings.lease().toMillis());
        } catch (RuntimeException e) {
            results = Collections.nCopies(asking.size(), new ScheduledStore.Claim.Failed(e));
        }
        for (int i = 0; i < asking.size(); i++) {
            Claiming c = asking.get(i);
            if (c.releasedBy() == null) {
                claimedForServer(c.user(), c.id(), results.get(i));
            } else {
                claimedForSender(c.releasedBy(), c.requestId(), c.id(), results.get(i));
            }
        }
    }

    /** The sender's client asked to send its message. */
    private void claimedForSender(Session session, long id, String messageId, ScheduledStore.Claim claim) {
        if (claim instanceof ScheduledStore.Claim.Claimed claimed) {
            unhold(session.user, messageId);
            fire(session.user, claimed.message(), false, session, id);
        } else if (claim instanceof ScheduledStore.Claim.NotDue notDue) {
            hold(session.user, notDue.message()); // the server sends it at its time
            answer(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "scheduled message " + messageId
                    + " is not due yet by the server's clock; it will be sent at its time", false));
        } else if (claim instanceof ScheduledStore.Claim.Failed failure) {
            rescan.set(true); // the server sends it once Redis answers again
            failed(session, id, failure.cause());
        } else {
            answer(session, notFound(id, messageId));
        }
    }

    /** The server's job for the message fired. */
    private void claimedForServer(String user, String id, ScheduledStore.Claim claim) {
        if (claim instanceof ScheduledStore.Claim.Claimed claimed) {
            fire(user, claimed.message(), true, null, 0);
        } else if (claim instanceof ScheduledStore.Claim.NotDue notDue) {
            hold(user, notDue.message());
        } else if (claim instanceof ScheduledStore.Claim.Failed failure) {
            rescan.set(true);
            log.warn("Could not send scheduled message {} of {}; the next scan retries: {}", id, user,
                    failure.cause().toString());
        }
    }

    // The server's jobs.

    /** Holds a job for {@code message} of {@code user} if it is due within the window; a job held before is replaced. */
    private void hold(String user, Scheduled message) {
        String key = user + '/' + message.getId();
        long delay = message.getDueAtMillis() - clock.millis();
        if (delay > settings.window().toMillis()) {
            unhold(user, message.getId());
            return;
        }
        ScheduledJob job = wheel.schedule(Job.of("send scheduled message " + message.getId() + " of " + user,
                () -> due(user, message.getId())), Duration.ofMillis(delay)); // one already due runs at once
        ScheduledJob previous = held.put(key, job);
        if (previous != null) {
            previous.cancel();
        }
    }

    private void unhold(String user, String id) {
        String key = user + '/' + id;
        graced.remove(key);
        ScheduledJob job = held.remove(key);
        if (job != null) {
            job.cancel();
        }
    }

    /** The server's job for a message fired: send it, unless its sender's client is there to do so. */
    private void due(String user, String id) {
        held.remove(user + '/' + id);
        claims.add(user, new Claiming(user, id, null, 0));
    }

    /**
     * On the user's lane, when the server's job fired: true when the sender is online and gets
     * {@code releaseGrace} to send it first (the job fires again after it).
     */
    private boolean leftToSender(String user, String id) {
        String key = user + '/' + id;
        try {
            if (!graced.contains(key) && senderOnline(user)) {
                graced.add(key);
                ScheduledJob retry = wheel.schedule(Job.of("send scheduled message " + id + " of " + user
                        + " after the grace", () -> due(user, id)), settings.releaseGrace());
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

    private boolean senderOnline(String user) {
        UserEntry entry = users.get(user);
        if (entry != null && entry.size() > 0) {
            return true;
        }
        return peers.getAsInt() > 0 && !presence.nodesOf(user).isEmpty();
    }

    /** Sends a claimed message, then forgets it and tells the user's terminals. */
    private void fire(String user, Scheduled message, boolean byServer, Session releasedBy, long requestId) {
        long now = clock.millis();
        Chat chat = Chat.newBuilder()
                .setId(message.getId())
                .setSender(user)
                .setRecipient(message.getRecipient())
                .setText(message.getText())
                .setSentAtMillis(now)
                .setDelay(Chat.Delay.newBuilder()
                        .setRequestedMillis(message.getRequestedMillis())
                        .setDueAtMillis(message.getDueAtMillis())
                        .setFiredByServer(byServer))
                .build();
        (byServer ? serverLateness : senderLateness).record(Math.max(0, now - message.getDueAtMillis()), TimeUnit.MILLISECONDS);
        Tracker tracker = new Tracker(0, message.getIdBytes(), message.getRecipient(), (t, sessions, stored, failure) ->
                finished.add(user, new Finished(user, message, failure, releasedBy, requestId)));
        firer.execute(() -> router.route(chat, tracker, null, gate));
    }

    /**
     * On a lane: forgets a batch of sent messages in one round trip, then tells their users' terminals.
     * A message that failed on the server's side (the store did not answer) is neither forgotten nor
     * told: its claim runs out and a later scan sends it again. One that failed for good (the
     * recipient's inbox full) is forgotten and told as failed.
     */
    private void finishedAll(List<Finished> batch) {
        Replies replies = new Replies();
        List<ScheduledStore.Ref> refs = new ArrayList<>(batch.size());
        List<Finished> settled = new ArrayList<>(batch.size());
        for (Finished f : batch) {
            if (f.failure() != null && f.failure().code() == ErrorReply.Code.INTERNAL) {
                log.warn("Scheduled message {} of {} could not be sent ({}); it is tried again once its claim of {} runs out",
                        f.message().getId(), f.user(), f.failure().reason(), settings.lease());
                if (f.releasedBy() != null) {
                    // The client that asked only needs its answer: the server sends it later.
                    replies.add(f.releasedBy(), Envelopes.error(f.requestId(), ErrorReply.Code.INTERNAL,
                            "not sent yet: " + f.failure().reason() + "; the server sends it later", false));
                }
                continue;
            }
            settled.add(f);
            refs.add(new ScheduledStore.Ref(f.user(), f.message().getId()));
        }
        if (!refs.isEmpty()) {
            try {
                store.doneAll(refs); // what it could not forget is sent again once its claim runs out
            } catch (RuntimeException e) {
                log.warn("Could not forget {} sent scheduled messages: {}", refs.size(), e.toString());
            }
        }
        for (Finished f : settled) {
            sent(replies, f.user(), f.message(), f.failure(), f.releasedBy(), f.requestId());
        }
        replies.send();
    }

    private void sent(Replies replies, String user, Scheduled message, Tracker.Failure failure, Session releasedBy,
            long requestId) {
        ScheduledChange.Builder change = ScheduledChange.newBuilder().setKind(ScheduledChange.Kind.SENT).setMessage(message);
        if (failure != null) {
            // Not sent, and no longer scheduled: every terminal is told why, not that it was sent.
            log.warn("Scheduled message {} of {} could not be sent: {}", message.getId(), user, failure.reason());
            change.setKind(ScheduledChange.Kind.FAILED).setReason(failure.reason());
        }
        ScheduledChange told = change.build();
        if (releasedBy != null) {
            replies.add(releasedBy, Envelopes.scheduledChange(requestId, told));
        }
        tellHere(replies, user, releasedBy, () -> Envelopes.scheduledChange(0, told));
        tellOtherNodes(user, () -> told);
    }

    // Telling the user's terminals.

    /** Answers {@code session}'s request and tells the user's other terminals, here and on other nodes. */
    private void changed(Session session, long requestId, ScheduledChange.Kind kind, Scheduled message) {
        Replies replies = new Replies();
        changed(replies, session, requestId, kind, message);
        replies.send();
    }

    private void changed(Replies replies, Session session, long requestId, ScheduledChange.Kind kind,
            Scheduled message) {
        replies.add(session, Envelopes.scheduledChange(requestId, kind, message));
        tellHere(replies, session.user, session, () -> Envelopes.scheduledChange(0, kind, message));
        tellOtherNodes(session.user, () -> ScheduledChange.newBuilder().setKind(kind).setMessage(message).build());
    }

    /** News from another node, for this node's sessions of the user. */
    void news(NodeMessage.UserNews news) {
        Replies replies = new Replies();
        tellHere(replies, news.getUser(), null, () -> Envelopes.builder(0).setScheduledChange(news.getChange()).build());
        replies.send();
    }

    /** Tells the user's sessions here but {@code except}; the envelope is built only if there is one (mostly not). */
    private void tellHere(Replies replies, String user, Session except, Supplier<Envelope> envelope) {
        UserEntry entry = users.get(user);
        if (entry == null) {
            return;
        }
        Envelope built = null;
        for (Session other : entry.sessions()) {
            if (other != except) {
                if (built == null) {
                    built = envelope.get();
                }
                replies.add(other, built);
            }
        }
    }

    private void tellOtherNodes(String user, Supplier<ScheduledChange> change) {
        if (peers.getAsInt() == 0) {
            return; // a lone node: nobody to tell, and the change is not even built
        }
        ScheduledChange news = change.get();
        try {
            for (String node : presence.nodesOf(user)) {
                if (!node.equals(presence.nodeId())) {
                    bus.send(node, NodeMessage.newBuilder().setFromNode(presence.nodeId())
                            .setNews(NodeMessage.UserNews.newBuilder().setUser(user).setChange(news)).build());
                }
            }
        } catch (RuntimeException e) {
            log.warn("Could not tell the other terminals of {} about a scheduled message: {}", user, e.toString());
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return e + (root != e ? " (" + root + ")" : "");
    }

    private static Envelope notFound(long id, String messageId) {
        return Envelopes.error(id, ErrorReply.Code.NOT_FOUND, "no scheduled message " + messageId
                + " (sent or cancelled already, or never scheduled)", false);
    }

    private void answer(Session session, Envelope envelope) {
        Replies one = new Replies();
        one.add(session, envelope);
        one.send();
    }

    /** Runs store work for {@code session}'s user on their lane; a failure answers request {@code id}. */
    private void onLane(Session session, long id, Runnable work) {
        lanes.of(session.user).execute(() -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                failed(session, id, e);
            }
        });
    }

    private void failed(Session session, long id, RuntimeException e) {
        log.error("A scheduled-message request of {} failed: {}", session, e.toString());
        answer(session, Envelopes.error(id, ErrorReply.Code.INTERNAL, StoreFullException.describe(e) + "; try again",
                false));
    }
}
