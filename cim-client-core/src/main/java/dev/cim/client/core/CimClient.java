package dev.cim.client.core;

import dev.cim.common.net.NettyTransport;
import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.MessageIds;
import dev.cim.common.protocol.proto.AccountSettings;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ListSent;
import dev.cim.common.protocol.proto.LoginResult;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.Skip;
import dev.cim.common.protocol.proto.Timing;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cim client: one user's connection to a cim server, kept up across failures, for any Java
 * program. The console client, the load generator and the end-to-end tests all use it.
 *
 * <pre>{@code
 * CimClient alice = CimClient.builder()
 *         .addresses("127.0.0.1:9000,127.0.0.1:9001")
 *         .user("alice").password(secret)
 *         .listener(new CimListener() {
 *             public void onMessage(ChatMessage m) { System.out.println(m.sender() + ": " + m.text()); }
 *         })
 *         .build();
 * alice.connect().join();                                      // logged in
 * alice.send(Recipient.user("bob"), "hi").join();              // delivered, or stored for bob
 * alice.schedule(Recipient.EVERYONE, "lunch?", Duration.ofMinutes(30)).join();
 * alice.close();
 * }</pre>
 *
 * <h3>What it promises</h3>
 * <ul>
 *   <li><b>Nothing sent is lost.</b> A request stays with the client until the server answers it. A
 *       message sent while disconnected waits; after each login every unanswered request is sent
 *       again, in order, under its first number, so the server routes a message id once and
 *       answers a repeat with the first outcome. A send's future completes when the message reached
 *       every session of its recipient or is stored durably for them ({@link SendReceipt}), or
 *       fails with a {@link CimException} saying why it was refused.</li>
 *   <li><b>Nothing is shown twice.</b> Received messages are acknowledged to the server after the
 *       listener has seen them, and a message id seen before ({@link SeenIds}) is dropped.</li>
 *   <li><b>Scheduled messages are the server's.</b> {@link #schedule} registers the message with
 *       the server, which keeps it durably and sends it at its time even if no client of the user is
 *       running. While running, the client also holds a job on its delay wheel for each of the
 *       user's messages due within the near window, and asks the server to send the message when
 *       the job fires: whichever comes first sends it, once.</li>
 *   <li><b>The password goes only to a verified server.</b> With TLS ({@link ClientTls}) it is sent
 *       once the server's certificate has been verified, and a server that fails verification
 *       stops the client; without TLS it is sent only to loopback addresses unless plaintext was
 *       allowed ({@link CimClientBuilder}).</li>
 *   <li><b>Reconnection spreads out.</b> Waits grow exponentially with jitter, and a server that
 *       goes away names the nodes to go to and a window to spread over.</li>
 * </ul>
 *
 * <h3>Threads</h3>
 * Every method may be called from any thread and never blocks, except {@link #close()}. The
 * client does its work on one I/O thread; futures complete and the {@link CimListener} is called
 * on that thread, so callbacks must not block.
 *
 * <h3>Parts</h3>
 * This class is the library's contract, and most of its length is the javadoc of each call. The
 * work is done by its parts: {@link Link} keeps a logged-in connection up, {@link Outbox} numbers,
 * writes and rewrites the requests, {@link ServerFrames} takes what the server sends to the request
 * it answers, {@link Inbound} shows each message once and acknowledges it, {@link ScheduleSync}
 * keeps the jobs of the user's near-term scheduled messages, {@link MessagePublisher} serves
 * {@link #messages()}, and {@link IoThread} is the one thread they share.
 */
public final class CimClient implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CimClient.class);

    private final String user;
    private final long origin;
    private final Clock clock;
    private final CimListener listener;
    private final EventLoopGroup group;
    private final boolean ownsGroup;
    private final IoThread io;
    private final Outbox outbox;
    private final Inbound inbound;
    private final ScheduleSync schedule;
    private final ServerFrames frames;
    private final MessagePublisher publisher;
    private final Link link;
    private final CimGroups groups;
    private final CimHistory history;
    private final CompletableFuture<LoginInfo> firstLogin = new CompletableFuture<>();

    // Confined to the I/O thread.
    private volatile LoginInfo loginInfo;
    /** The account's time zone as last heard (login, news, this client's own change); null when not set. */
    private volatile ZoneId zone;
    private boolean started;
    private volatile boolean closed;
    /** Completed when the close has run on the I/O thread; every caller of {@link #close()} waits on it. */
    private final CompletableFuture<Void> closing = new CompletableFuture<>();
    private final AtomicBoolean closeCalled = new AtomicBoolean();

    CimClient(CimClientBuilder b) {
        this.user = b.user;
        this.origin = MessageIds.newOrigin();
        this.clock = b.clock;
        this.listener = b.listener;
        this.ownsGroup = b.group == null;
        this.group = ownsGroup
                ? NettyTransport.of(b.nativeTransport).group(1, new DefaultThreadFactory("cim-client-" + b.user, true))
                : b.group;
        EventLoop loop = group.next();
        this.io = new IoThread(loop);
        Requests requests = new Requests(b.maxOutstanding);
        this.publisher = new MessagePublisher(user);
        this.inbound = new Inbound(b.seenIdsForNewClient(), this::received);
        this.schedule = new ScheduleSync(user, (kind, build) -> request(kind, true, build), clock, b.nearWindow, loop,
                b.scheduler);
        this.link = new Link(loop, b, origin, new LinkOwner());
        this.outbox = new Outbox(requests, io, link::channel);
        this.frames = new ServerFrames(requests, outbox::again, inbound, schedule, new News(),
                MessageIds.prefix(origin));
        this.groups = new CimGroups(outbox);
        this.history = new CimHistory(outbox);
    }

    /** A builder; {@link CimClientBuilder#addresses}, {@link CimClientBuilder#user} and a password are required. */
    public static CimClientBuilder builder() {
        return new CimClientBuilder();
    }

    /** The user this client logs in as. */
    public String user() {
        return user;
    }

    /** This client's origin: the first half of the ids of the messages it sends. */
    public long origin() {
        return origin;
    }

    /**
     * Starts connecting, and keeps the connection up until {@link #close()}. Calling it again does
     * nothing more.
     *
     * @return completes with the first login; fails with {@link CimException.Reason#LOGIN_REFUSED}
     *         when the server refuses it, or {@link CimException.Reason#TLS_FAILED} when the
     *         connection cannot be made secure (the client then stops), or
     *         {@link CimException.Reason#CLOSED}
     */
    public CompletableFuture<LoginInfo> connect() {
        io.run(() -> { }, () -> { // closed: firstLogin has failed already
            if (!started && !closed) {
                started = true;
                link.start();
            }
        });
        return firstLogin;
    }

    /**
     * The event loop this client runs on: its I/O, its callbacks, and work a program wants done in
     * step with them (a load generator paces its sends on it).
     */
    public EventLoop eventLoop() {
        return io.loop();
    }

    /** True while logged in. */
    public boolean isConnected() {
        return loginInfo != null && !closed;
    }

    /**
     * Sends {@code text} to {@code to} now, or as soon as the connection is back.
     *
     * @return the receipt, once the message reached every session of its recipient or is stored for
     *         them; fails with a {@link CimException} when the server refused it
     */
    public CompletableFuture<SendReceipt> send(Recipient to, String text) {
        Objects.requireNonNull(to, "to");
        CompletableFuture<SendReceipt> invalid = checkText(text);
        if (invalid != null) {
            return invalid;
        }
        return request(Pending.Kind.SEND, false, id -> Envelopes.send(id, to.name(), text));
    }

    /**
     * Schedules {@code text} for {@code to} at {@code dueAt} (in the past: as soon as possible). The
     * server holds it from the moment the future completes; while disconnected, the registration
     * waits and is made on reconnection.
     *
     * @return the message as the server holds it, with its number
     */
    public CompletableFuture<ScheduledMessage> schedule(Recipient to, String text, Instant dueAt) {
        Objects.requireNonNull(dueAt, "dueAt");
        return schedule(to, text, dueAt, Duration.between(clock.instant(), dueAt));
    }

    /** Schedules {@code text} for {@code to} in {@code delay} from now. */
    public CompletableFuture<ScheduledMessage> schedule(Recipient to, String text, Duration delay) {
        Objects.requireNonNull(delay, "delay");
        return schedule(to, text, clock.instant().plus(delay), delay);
    }

    private CompletableFuture<ScheduledMessage> schedule(Recipient to, String text, Instant dueAt, Duration requested) {
        Objects.requireNonNull(to, "to");
        CompletableFuture<ScheduledMessage> invalid = checkText(text);
        if (invalid != null) {
            return invalid;
        }
        return request(Pending.Kind.SCHEDULE, false, id -> Envelopes.schedule(id, to.name(), text,
                dueAt.toEpochMilli(), Math.max(0, requested.toMillis())));
    }

    /**
     * Schedules {@code text} for {@code to} {@code when}: at a time, when the recipient logs in,
     * every so often, at a time of day in some zone; see {@link When}. The server holds it from the
     * moment the future completes.
     *
     * @return the message as the server holds it, with its number and, for a recurring one or a
     *         time of day, its first due time
     */
    public CompletableFuture<ScheduledMessage> schedule(Recipient to, String text, When when) {
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(when, "when");
        CompletableFuture<ScheduledMessage> invalid = checkText(text);
        if (invalid != null) {
            return invalid;
        }
        Instant now = clock.instant();
        long due = when.dueAtMillis(now);
        long requested = when.requestedMillis(now);
        Timing timing = when.timing();
        return request(Pending.Kind.SCHEDULE, false, id -> {
            Envelope schedule = Envelopes.schedule(id, to.name(), text, due, requested);
            return timing == null ? schedule : schedule.toBuilder()
                    .setSchedule(schedule.getSchedule().toBuilder().setTiming(timing)).build();
        });
    }

    /**
     * Skips the next occurrence of recurring message {@code id}.
     *
     * @return the series as it is now, at its next occurrence (if the skipped one was its last, the
     *         message as it was: it is no longer scheduled)
     */
    public CompletableFuture<ScheduledMessage> skip(String id) {
        Objects.requireNonNull(id, "id");
        return request(Pending.Kind.SKIP, false, rid -> Envelopes.builder(rid)
                .setSkip(Skip.newBuilder().setId(id)).build());
    }

    /**
     * The newest {@code limit} entries (0: the server's default) of the record of the user's
     * scheduled messages whose time came: sent (when, how late), failed or dropped (why), newest first.
     */
    public CompletableFuture<List<SentEntry>> sent(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit " + limit + " (expected: 0 or more)");
        }
        return request(Pending.Kind.SENT_LIST, false, rid -> Envelopes.builder(rid)
                .setListSent(ListSent.newBuilder().setLimit(limit)).build());
    }

    /** All of the user's scheduled messages as the server holds them, soonest first. */
    public CompletableFuture<List<ScheduledMessage>> scheduled() {
        return request(Pending.Kind.LIST_SCHEDULED, false, id -> Envelopes.listScheduled(id, 0));
    }

    /** Replaces the text of scheduled message {@code id}. */
    public CompletableFuture<ScheduledMessage> edit(String id, String text) {
        Objects.requireNonNull(id, "id");
        CompletableFuture<ScheduledMessage> invalid = checkText(text);
        if (invalid != null) {
            return invalid;
        }
        return request(Pending.Kind.EDIT, false, rid -> Envelopes.edit(rid, id, text, 0, 0));
    }

    /** Moves scheduled message {@code id} to {@code dueAt}. */
    public CompletableFuture<ScheduledMessage> move(String id, Instant dueAt) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(dueAt, "dueAt");
        long requested = Math.max(0, Duration.between(clock.instant(), dueAt).toMillis());
        return request(Pending.Kind.EDIT, false, rid -> Envelopes.edit(rid, id, "", dueAt.toEpochMilli(), requested));
    }

    /** Moves scheduled message {@code id} to {@code delay} from now. */
    public CompletableFuture<ScheduledMessage> move(String id, Duration delay) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(delay, "delay");
        Instant due = clock.instant().plus(delay);
        return request(Pending.Kind.EDIT, false, rid -> Envelopes.edit(rid, id, "", due.toEpochMilli(), delay.toMillis()));
    }

    /** Cancels scheduled message {@code id}; fails with {@link CimException.Reason#NOT_FOUND} if it was sent already. */
    public CompletableFuture<ScheduledMessage> cancel(String id) {
        Objects.requireNonNull(id, "id");
        return request(Pending.Kind.CANCEL, false, rid -> Envelopes.cancel(rid, id));
    }

    /**
     * Sets the account's time zone, kept by the server: where this user's wall-clock times are read
     * (recurring rules, times of day) and shown to others as "their" time. The user's other
     * terminals are told ({@link CimListener#onZoneChanged}).
     *
     * @return the zone as the server stored it
     */
    public CompletableFuture<ZoneId> setZone(ZoneId zone) {
        Objects.requireNonNull(zone, "zone");
        return this.<ZoneId>request(Pending.Kind.SETTINGS, false, id -> Envelopes.setSettings(id,
                AccountSettings.newBuilder().setZone(zone.getId()).build()))
                .thenApply(stored -> {
                    this.zone = stored;
                    return stored;
                });
    }

    /** The account's time zone, as of the last login or change; empty when it has none. */
    public Optional<ZoneId> zone() {
        return Optional.ofNullable(zone);
    }

    /** This user's groups: make, join, leave and list them. */
    public CimGroups groups() {
        return groups;
    }

    /** The history of this user's conversations, and searching it. */
    public CimHistory history() {
        return history;
    }

    /** The users online on any node, sorted by name. */
    public CompletableFuture<List<String>> onlineUsers() {
        return request(Pending.Kind.ONLINE_USERS, false, Envelopes::onlineUsersRequest);
    }

    /**
     * Completes once every request made before this call has been answered (or failed). For a
     * program that wants to be sure that what it sent was received before it exits.
     */
    public CompletableFuture<Void> allAnswered() {
        CompletableFuture<Void> all = new CompletableFuture<>();
        io.run(() -> all.complete(null), () -> {
            List<CompletableFuture<Object>> waiting = new ArrayList<>();
            for (Pending pending : outbox.unanswered()) {
                waiting.add(pending.result.exceptionally(failure -> null));
            }
            CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new))
                    .whenComplete((done, failure) -> all.complete(null));
        });
        return all;
    }

    /** Requests made through this client and not yet answered. */
    public int unanswered() {
        return io.read(() -> outbox.unanswered().size(), 0);
    }

    /** Received messages dropped because they had been seen already. */
    public long duplicatesDropped() {
        return io.read(inbound::duplicates, 0L);
    }

    /** The user's scheduled messages with a job on this client's wheel (those due within the near window). */
    public int heldJobs() {
        return io.read(schedule::heldJobs, 0);
    }

    /**
     * Received messages as a {@link Flow.Publisher}, for programs that prefer reactive streams to a
     * listener. Its subscribers are called on a thread of their own; a subscriber that falls behind
     * by more than {@link Flow#defaultBufferSize()} messages slows the connection down. Messages
     * are acknowledged to the server when they are handed to the publisher, not when a subscriber
     * has processed them: for exactly-once display, use the {@link CimListener}.
     */
    public Flow.Publisher<ChatMessage> messages() {
        return publisher.publisher();
    }

    /**
     * Closes the connection and stops the client: unanswered requests fail, with
     * {@link CimException.Reason#UNCONFIRMED} those written to a server (which may have carried them
     * out) and {@link CimException.Reason#CLOSED} the others; nothing is sent again. Scheduled
     * messages stay on the server. To close without leaving sends unconfirmed, wait on
     * {@link #allAnswered()} first. Waits up to a few seconds for the client's threads to stop.
     */
    @Override
    public void close() {
        // The first call closes; a second (a shutdown hook while the owner quits) waits for the same
        // close, so that whoever counts the failed requests after close() returns sees them all.
        if (closeCalled.compareAndSet(false, true)) {
            io.run(() -> closing.complete(null), () -> {
                closed = true;
                link.close();
                schedule.close();
                outbox.close();
                firstLogin.completeExceptionally(new CimException(CimException.Reason.CLOSED,
                        "the client was closed before it logged in"));
                safely(() -> listener.onConnection(new ConnectionEvent.Closed()));
                closing.complete(null);
            });
        }
        try {
            closing.get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("The client of {} did not close within 5 s", user);
        }
        publisher.close();
        if (ownsGroup) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    // Requests.

    private <T> CompletableFuture<T> request(Pending.Kind kind, boolean internal, LongFunction<Envelope> build) {
        return outbox.request(kind, internal, build);
    }

    private <T> CompletableFuture<T> checkText(String text) {
        int max = loginInfo != null ? loginInfo.maxTextLength() : ChatRules.MAX_TEXT_LENGTH;
        return ChatRules.textProblem(text, max)
                .<CompletableFuture<T>>map(problem -> CompletableFuture.failedFuture(
                        new CimException(CimException.Reason.BAD_REQUEST, problem)))
                .orElse(null);
    }

    private void received(ChatMessage message) {
        listener.onMessage(message);
        publisher.submit(message);
    }

    private void safely(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            log.warn("The listener of {} failed", user, e);
        }
    }

    /** What the link reports, on the I/O thread. */
    private final class LinkOwner implements Link.Owner {

        @Override
        public void loggedIn(Channel channel, LoginResult result, ServerAddress address) {
            loginInfo = Conversions.loginInfo(result);
            zone = loginInfo.zone().orElse(null);
            inbound.reset();
            int resent = outbox.resend(channel);
            safely(() -> listener.onConnection(new ConnectionEvent.Connected(address, result.getNodeId(),
                    result.getAccountCreated(), resent)));
            firstLogin.complete(loginInfo);
            schedule.loggedIn();
        }

        @Override
        public void frame(Channel channel, Envelope envelope) {
            frames.frame(envelope);
        }

        @Override
        public void readComplete(Channel channel) {
            inbound.readComplete(channel);
        }

        @Override
        public void lost() {
            loginInfo = null;
        }

        @Override
        public void stopped(CimException failure) {
            outbox.stopped(failure);
            firstLogin.completeExceptionally(failure);
        }

        @Override
        public void event(ConnectionEvent event) {
            safely(() -> listener.onConnection(event));
        }
    }

    /** What the server tells that no request asked for, to the listener (a failing listener is logged). */
    private final class News implements CimListener {

        @Override
        public void onScheduledChange(ScheduledChange change) {
            safely(() -> listener.onScheduledChange(change));
        }

        @Override
        public void onGroupChange(GroupChange change) {
            safely(() -> listener.onGroupChange(change));
        }

        @Override
        public void onZoneChanged(ZoneId changed) {
            zone = changed;
            safely(() -> listener.onZoneChanged(changed));
        }
    }
}
