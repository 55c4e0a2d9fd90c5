package dev.cim.server.chat;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Receipts;
import dev.cim.server.store.InboxStore;
import dev.cim.server.store.StoreFullException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jctools.queues.MpscUnboundedArrayQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One logged-in connection of a user, and the delivery of their messages on it.
 *
 * <h3>Delivery</h3>
 * Messages reach a session through a queue any thread may add to ({@link #enqueue}, under its user's
 * {@link UserEntry} lock); one task on the connection's owner thread drains everything queued since
 * its last run, so a burst of messages costs one hand-off, not one each. Each message written
 * becomes an entry of the session's <em>window</em>; the client acknowledges how many it has
 * received ({@link #acknowledged}), and acknowledged entries leave the window and count toward their
 * senders' receipts. When the session closes, whatever is still in the window (and whatever was
 * queued for it) goes to the user's inbox, in order, before anything newer can: so nothing a session
 * took is lost, and what it had not acknowledged comes again at the next login.
 *
 * <h3>States</h3>
 * <pre>
 *   CATCHING_UP --inbox read to its end--&gt; LIVE --closed--&gt; CLOSING --stored--&gt; CLOSED
 *        ^                                   |
 *        +--------- poked: stored for us ----+
 * </pre>
 * A session starts by reading its user's inbox in pages, as its window makes room (a large inbox
 * never sits in memory at once). Meanwhile, live messages are held, and past a limit stored after
 * what it is reading; once a page comes back short with nothing stored since it was asked for, the
 * held messages are written and the session is live. A client that stops reading lets its window
 * fill; past the window's limits the session is closed with a reason (its messages wait in the
 * inbox), so that a recipient can never make the server hold more for it than the limits.
 *
 * <p>Everything here runs on {@link Connection#owner()} except {@link #enqueue}; inbox work runs
 * on the user's lane.
 */
public final class Session {

    private static final Logger log = LoggerFactory.getLogger(Session.class);

    enum State { CATCHING_UP, LIVE, CLOSING, CLOSED }

    /** A message written and not yet acknowledged; {@code inboxId} is set when it came from the inbox. */
    private record Sent(Delivery delivery, InboxStore.Entry inboxEntry) {
    }

    /**
     * Elements per link of the two queues: what an idle session holds (two arrays of this many
     * references), and how often a busy one links a new array.
     */
    private static final int QUEUE_CHUNK = 32;

    /** Receipts per Receipts frame: some 6 bytes each, far under a frame. */
    static final int RECEIPTS_PER_FRAME = 1024;

    /** An answer to one of this client's requests, waiting for the drain. */
    private sealed interface Answer {
        /** Any answer, written as it is. */
        record Frame(Envelope envelope) implements Answer {
        }

        /** Message {@code sequence} reached {@code sessions} sessions: one entry of a Receipts frame. */
        record Delivered(long sequence, int sessions) implements Answer {
        }
    }

    /**
     * Stands in {@link #incoming} where something was stored in the inbox for this user: the inbox
     * is read before anything handed over after it, so a message stored and a newer one handed over
     * live reach the client in that order.
     */
    private static final Delivery POKE = Delivery.of(Envelope.getDefaultInstance(), null);

    final long id;
    final String user;
    final Origin origin;
    final Connection connection;
    private final LocalUsers users;
    private final InboxStore inbox;
    private final Executor lane;
    private final Limits limits;
    private final ChatMetrics.Written counted;
    private final Consumer<Session> onClosed;
    // Many threads add, only the owner takes: multi-producer single-consumer queues, whose take is a
    // plain read and whose add makes no node per element (a ConcurrentLinkedQueue's compare-and-sets
    // and nodes took 12 % of the I/O threads' samples in a profile of the closed-loop load).
    private final Queue<Delivery> incoming = new MpscUnboundedArrayQueue<>(QUEUE_CHUNK);
    /** Answers to this client's requests (receipts, refusals), written by the same drain as deliveries. */
    private final Queue<Answer> answers = new MpscUnboundedArrayQueue<>(QUEUE_CHUNK);
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Runnable drainTask = this::drain;

    // Owner-confined.
    private State state = State.CATCHING_UP;
    private final ArrayDeque<Sent> window = new ArrayDeque<>();
    private long windowBytes;
    private long written;
    private long writtenFromInbox;
    private long reportedLive;
    private long reportedFromInbox;
    private long acknowledged;
    private final ArrayDeque<Delivery> held = new ArrayDeque<>();
    private String cursor = "0";
    private boolean pageAsked;
    private boolean pageWanted;
    private long flushes;
    private long flushesWhenAsked;
    private boolean goneLive;
    private boolean readPaused;

    /**
     * @param users    the registry the session joins once its login is done, and leaves when it closes
     * @param lane     the user's lane ({@link UserLanes#of})
     * @param counted  told how many messages the session wrote, at each flush
     * @param onClosed told on the owner thread once everything the session held is stored
     */
    Session(long id, String user, Origin origin, Connection connection, LocalUsers users, InboxStore inbox,
            Executor lane, Limits limits, ChatMetrics.Written counted, Consumer<Session> onClosed) {
        this.id = id;
        this.user = user;
        this.origin = origin;
        this.connection = connection;
        this.users = users;
        this.inbox = inbox;
        this.lane = lane;
        this.limits = limits;
        this.counted = counted;
        this.onClosed = onClosed;
    }

    public String user() {
        return user;
    }

    State state() {
        return state;
    }

    /** Messages written and not yet acknowledged. */
    int unacknowledged() {
        return window.size();
    }

    /** True once the session has read its inbox to the end at least once since login. */
    boolean hasGoneLive() {
        return goneLive;
    }

    // Any thread.

    /** Hands {@code delivery} to this session; called under its user's entry lock. */
    void enqueue(Delivery delivery) {
        add(delivery);
    }

    /**
     * Something was stored in this user's inbox while they were online here: the session reads it
     * before anything handed to it after this call.
     */
    void poke() {
        add(POKE);
    }

    /**
     * Writes {@code answer} to this session's client with the next drain: the outcomes of many
     * messages, finished on other threads, cost one hand-off and one flush, not one each.
     */
    void answer(Envelope answer) {
        answers.add(new Answer.Frame(answer));
        scheduleDrain();
    }

    /**
     * Tells this session's client that its message {@code sequence} reached {@code sessions}
     * sessions, with the next drain, in one Receipts frame with the others delivered meanwhile.
     */
    void delivered(long sequence, int sessions) {
        answers.add(new Answer.Delivered(sequence, sessions));
        scheduleDrain();
    }

    private void add(Delivery delivery) {
        incoming.add(delivery);
        scheduleDrain();
    }

    private void scheduleDrain() {
        if (drainScheduled.compareAndSet(false, true)) {
            connection.owner().execute(drainTask);
        }
    }

    // Owner thread.

    private void drain() {
        drainScheduled.set(false);
        if (state == State.CLOSING || state == State.CLOSED) {
            // closed() took what was queued when the session left its entry; nothing should come
            // after, but should anything, it goes where the rest went rather than nowhere.
            List<Delivery> late = new ArrayList<>();
            for (Delivery delivery; (delivery = incoming.poll()) != null; ) {
                if (delivery != POKE) {
                    late.add(delivery);
                }
            }
            if (!late.isEmpty()) {
                store(late, () -> { });
            }
            answers.clear(); // the connection is closing: the client asks again on its next one
            return;
        }
        boolean wrote = false;
        for (Delivery delivery; (delivery = incoming.poll()) != null; ) {
            wrote |= accept(delivery);
            if (state == State.CLOSING) {
                return; // the window overflowed: the rest goes to the inbox with it
            }
        }
        boolean answered = false;
        Receipts.Builder receipts = null;
        for (Answer answer; (answer = answers.poll()) != null; ) {
            answered = true;
            if (answer instanceof Answer.Delivered delivered) {
                if (receipts == null) {
                    receipts = Receipts.newBuilder();
                }
                receipts.addRequestIds(delivered.sequence()).addSessions(delivered.sessions());
                if (receipts.getRequestIdsCount() == RECEIPTS_PER_FRAME) {
                    connection.write(Envelopes.receipts(receipts.build()));
                    receipts = null;
                }
            } else {
                connection.write(((Answer.Frame) answer).envelope());
            }
        }
        if (receipts != null) {
            connection.write(Envelopes.receipts(receipts.build()));
        }
        if (wrote) {
            flush();
        } else if (answered) {
            connection.flush();
        }
        if (answered && readPaused && origin.pendingCount() <= limits.pendingPerOrigin() / 2) {
            readPaused = false;
            connection.readPaused(false);
        }
    }

    /**
     * Too many of this client's messages are routed and not resolved: reads no more of it until
     * half of them are (slowing the sender, not the server).
     */
    void pauseReading() {
        if (!readPaused) {
            readPaused = true;
            connection.readPaused(true);
        }
    }

    /** @return true when something was written */
    private boolean accept(Delivery delivery) {
        if (delivery == POKE) {
            readInbox();
            return false;
        }
        if (state == State.LIVE) {
            write(delivery, null);
            return true;
        }
        held.add(delivery);
        if (held.size() > limits.heldMessages()) {
            storeHeld();
        }
        return false;
    }

    private void write(Delivery delivery, InboxStore.Entry entry) {
        window.add(new Sent(delivery, entry));
        windowBytes += delivery.bytes();
        written++;
        if (entry != null) {
            writtenFromInbox++;
        }
        connection.write(delivery.envelope());
        if (window.size() > limits.windowMessages() || windowBytes > limits.windowBytes()) {
            overflow();
        }
    }

    private void flush() {
        connection.flush();
        long live = written - writtenFromInbox;
        counted.written(live - reportedLive, writtenFromInbox - reportedFromInbox);
        reportedLive = live;
        reportedFromInbox = writtenFromInbox;
    }

    /** Login done and the session in the registry (live messages are held from now on): reads the inbox. */
    void start() {
        catchUp();
    }

    /** Something was stored in this user's inbox while they were online here: read it. */
    private void readInbox() {
        if (state == State.LIVE) {
            state = State.CATCHING_UP;
            catchUp();
        } else if (state == State.CATCHING_UP) {
            pageWanted = true;
            catchUp();
        }
    }

    private void catchUp() {
        if (state != State.CATCHING_UP || pageAsked) {
            return;
        }
        int room = limits.windowMessages() / 2 - window.size();
        if (room <= 0) {
            pageWanted = true; // asked again when acknowledgements make room
            return;
        }
        int count = Math.min(limits.pageSize(), room);
        pageAsked = true;
        pageWanted = false;
        flushesWhenAsked = flushes;
        String after = cursor;
        lane.execute(() -> {
            List<InboxStore.Entry> page;
            try {
                page = inbox.page(user, after, count);
            } catch (RuntimeException e) {
                log.warn("Could not read the inbox of {} for session {}: {}", user, this, e.toString());
                connection.owner().execute(() -> fail("the server could not read your inbox; please reconnect"));
                return;
            }
            connection.owner().execute(() -> pageRead(page, count));
        });
    }

    private void pageRead(List<InboxStore.Entry> page, int asked) {
        pageAsked = false;
        if (state != State.CATCHING_UP) {
            return;
        }
        for (InboxStore.Entry entry : page) {
            write(Delivery.of(entry.chat(), null), entry);
            cursor = entry.id();
            if (state != State.CATCHING_UP) {
                return;
            }
        }
        flush();
        if (page.size() == asked || pageWanted || flushes != flushesWhenAsked) {
            catchUp(); // more to read, or stored since this page was asked for
        } else {
            goLive();
        }
    }

    private void goLive() {
        state = State.LIVE;
        if (!goneLive) {
            goneLive = true;
            counted.caughtUp(writtenFromInbox);
        }
        for (Delivery delivery; (delivery = held.poll()) != null; ) {
            write(delivery, null);
            if (state != State.LIVE) {
                return;
            }
        }
        flush();
    }

    /** Stores the held messages behind what is being read, so that memory stays bounded. */
    private void storeHeld() {
        List<Delivery> storing = new ArrayList<>(held);
        held.clear();
        flushes++;
        store(storing, () -> { });
    }

    /**
     * The client acknowledged {@code received} deliveries in all on this connection.
     *
     * @return false when the number is impossible (more than was written, or less than before)
     */
    boolean acknowledged(long received) {
        if (received > written || received < acknowledged) {
            return false;
        }
        List<InboxStore.Entry> fromInbox = null;
        for (long n = acknowledged; n < received; n++) {
            Sent sent = window.poll();
            windowBytes -= sent.delivery().bytes();
            if (sent.inboxEntry() != null) {
                if (fromInbox == null) {
                    fromInbox = new ArrayList<>();
                }
                fromInbox.add(sent.inboxEntry());
            } else if (sent.delivery().tracker() != null) {
                sent.delivery().tracker().delivered();
            }
        }
        acknowledged = received;
        if (fromInbox != null) {
            List<InboxStore.Entry> remove = fromInbox;
            lane.execute(() -> {
                try {
                    inbox.remove(user, remove);
                } catch (RuntimeException e) {
                    // They stay in the inbox and come again at the next login; the client drops them.
                    log.warn("Could not remove {} acknowledged messages from the inbox of {}: {}", remove.size(), user,
                            e.toString());
                }
            });
        }
        if (state == State.CATCHING_UP && pageWanted) {
            catchUp();
        }
        return true;
    }

    /**
     * A newer connection of the same client (the same {@link Origin}) logged in while this one is
     * still open here: its client gave up on it (a server frozen past the client's idle timeout, a
     * connection cut without either end seeing it) and will never acknowledge what it holds, and
     * sends what it had not had answered again on the newer one. Closes this session on its owner
     * thread, which queues the store of what it had not acknowledged on the user's lane, then runs
     * {@code then} there: the newer session, started after it, reads the inbox behind that store, so
     * what this one held reaches the client before anything newer (not after it, once this
     * connection's idle timeout has passed). Frames still arriving here are ignored from then on.
     */
    void replace(Runnable then) {
        connection.owner().execute(() -> {
            if (!isClosing()) {
                log.info("Session {} replaced by a newer connection of the same client; {} unacknowledged go to the inbox",
                        this, window.size() + held.size());
                connection.close(ErrorReply.Code.CODE_UNSPECIFIED, "replaced by a newer connection of this client");
                closed();
            }
            then.run();
        });
    }

    /** True once the session is closing: what its connection still sends is not for it. */
    boolean isClosing() {
        return state == State.CLOSING || state == State.CLOSED;
    }

    /** The window is over its limits: the client is not reading. */
    private void overflow() {
        log.warn("Closing session {}: {} messages ({} bytes) unacknowledged", this, window.size(), windowBytes);
        connection.close(ErrorReply.Code.BAD_REQUEST, "you are not reading your messages fast enough ("
                + window.size() + " messages of " + windowBytes + " bytes unacknowledged; the most is "
                + limits.windowMessages() + " messages or " + limits.windowBytes()
                + " bytes); they wait in your inbox: reconnect to get them");
        closed();
    }

    private void fail(String reason) {
        connection.close(ErrorReply.Code.INTERNAL, reason);
        closed();
    }

    /**
     * The connection is gone (or must go). Leaves the registry, which ends what is handed to this
     * session, and stores everything not acknowledged (live messages, held ones, queued ones; not
     * those read from the inbox, which are there still), in order, before telling {@code onClosed}.
     */
    void closed() {
        if (state == State.CLOSING || state == State.CLOSED) {
            return;
        }
        state = State.CLOSING;
        List<Delivery> storing = new ArrayList<>();
        for (Sent sent : window) {
            if (sent.inboxEntry() == null) {
                storing.add(sent.delivery());
            }
        }
        window.clear();
        windowBytes = 0;
        storing.addAll(held);
        held.clear();
        // Leaving and queueing the store happen under the user's entry lock: a message routed once
        // the session is gone is stored on the lane behind these, never ahead of them.
        users.remove(this, () -> {
            for (Delivery delivery; (delivery = incoming.poll()) != null; ) {
                if (delivery != POKE) {
                    storing.add(delivery);
                }
            }
            store(storing, () -> connection.owner().execute(() -> {
                state = State.CLOSED;
                onClosed.accept(this);
            }));
        });
    }

    /** Stores {@code deliveries} in this user's inbox on the lane, settling their trackers, then runs {@code then}. */
    private void store(List<Delivery> deliveries, Runnable then) {
        if (deliveries.isEmpty()) {
            lane.execute(then); // after any store queued before, like the others
            return;
        }
        List<Chat> chats = new ArrayList<>(deliveries.size());
        deliveries.forEach(d -> chats.add(d.chat()));
        lane.execute(() -> {
            String problem = null;
            try {
                inbox.store(user, chats);
            } catch (RuntimeException e) {
                log.error("Could not store {} messages in the inbox of {}: {}", chats.size(), user, e.toString());
                problem = StoreFullException.describe(e);
            }
            for (Delivery delivery : deliveries) {
                if (delivery.tracker() != null) {
                    if (problem == null) {
                        delivery.tracker().stored();
                    } else {
                        delivery.tracker().failed(new Tracker.Failure(ErrorReply.Code.INTERNAL,
                                "message not delivered: " + problem + "; send it again"));
                    }
                }
            }
            then.run();
        });
    }

    @Override
    public String toString() {
        return user + "#" + id + "@" + connection.remote();
    }
}
