package dev.cim.server.chat.session;

import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.server.store.InboxStore;
import dev.cim.server.store.LogPosition;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One logged-in connection of a user, and the delivery of their messages on it.
 *
 * <h3>Delivery</h3>
 * Messages reach a session from any thread through its {@link Handoff} ({@link #enqueue}, under its
 * user's {@link UserEntry} lock), answers to its client's requests through its {@link Answers}; one
 * drain on the connection's owner thread writes everything queued since it last ran. Each message
 * written joins the session's {@link Window}; the client acknowledges how many it has received
 * ({@link #acknowledged}), and acknowledged messages count toward their senders' receipts. When the
 * session closes, whatever is still in the window (and whatever was queued for it) goes to the
 * user's inbox ({@link InboxWriter}), in order, before anything newer can: so nothing a session took
 * is lost, and what it had not acknowledged comes again at the next login.
 *
 * <h3>States</h3>
 * <pre>
 *   CATCHING_UP --inbox read to its end--&gt; LIVE --closed--&gt; CLOSING --stored--&gt; CLOSED
 *        ^                                   |
 *        +--------- poked: stored for us ----+
 * </pre>
 * A session starts by reading its user's inbox ({@link InboxReader}). Meanwhile, live messages are
 * held, and past a limit stored after what it is reading; once the inbox is read to its end, the
 * held messages are written and the session is live. A client that stops reading lets its window
 * fill; past the window's limits the session is closed with a reason (its messages wait in the
 * inbox), so that a recipient can never make the server hold more for it than the limits.
 *
 * <p>Everything here runs on {@link Connection#owner()} except {@link #enqueue}, {@link #poke},
 * {@link #answer} and {@link #delivered}; inbox work runs on the user's lane.
 *
 * <p>What is left here is the state machine above and the order rules that tie the parts together
 * (the hand-off, the window, the inbox read and store, the answers); each part is a class of its own.
 */
public final class Session {

    private static final Logger log = LoggerFactory.getLogger(Session.class);

    /** Where a session is in its life; see the class comment. */
    public enum State { CATCHING_UP, LIVE, CLOSING, CLOSED }

    /**
     * Stands in the hand-off where something was stored in the inbox for this user: the inbox is
     * read before anything handed over after it, so a message stored and a newer one handed over
     * live reach the client in that order.
     */
    private static final Delivery POKE = Delivery.of(Envelope.getDefaultInstance(), null);

    private final long id;
    private final String user;
    private final long origin;
    private final Connection connection;
    private final Sessions node;
    private final Consumer<Session> onClosed;
    private final Handoff handoff;
    private final Answers answers = new Answers();
    private final InboxWriter writer;
    private final InboxReader reader;

    // Owner-confined.
    private State state = State.CATCHING_UP;
    private final Window window = new Window();
    /** Sized for an idle session, as the window's deque. */
    private final ArrayDeque<Delivery> held = new ArrayDeque<>(1);
    /** Each group's last message written here: its position in the group's log; made at the first. */
    private Map<String, String> groupsWritten;
    private boolean goneLive;
    /** While reading is paused: true once it may resume. */
    private BooleanSupplier mayResume;
    /** The user's entry this session was added to ({@link LocalUsers#add}), or null before. */
    private volatile UserEntry entry;

    /**
     * @param groups the user's groups, whose logs the session reads after the inbox
     */
    Session(long id, String user, long origin, Connection connection, Sessions node, List<String> groups,
            Consumer<Session> onClosed) {
        this.id = id;
        this.user = user;
        this.origin = origin;
        this.connection = connection;
        this.node = node;
        this.onClosed = onClosed;
        this.handoff = new Handoff(connection.owner(), this::drain);
        this.writer = new InboxWriter(user, node.inbox(), node.laneOf(user));
        this.reader = new InboxReader(user, node.inbox(), node.groupLogs(), groups, node.laneOf(user),
                connection.owner(), node.limits(), new InboxReader.Pages() {
                    @Override
                    public void read(List<InboxReader.Read> page, boolean more) {
                        pageRead(page, more);
                    }

                    @Override
                    public void failed(String reason) {
                        fail(reason);
                    }
                });
    }

    /** This session's number on this node, for logs. */
    public long id() {
        return id;
    }

    public String user() {
        return user;
    }

    /** The client origin this session speaks for: the first half of its messages' ids. */
    public long origin() {
        return origin;
    }

    public Connection connection() {
        return connection;
    }

    public State state() {
        return state;
    }

    /** Messages written and not yet acknowledged. */
    public int unacknowledged() {
        return window.size();
    }

    /** True once the session has read its inbox to the end at least once since login. */
    public boolean hasGoneLive() {
        return goneLive;
    }

    // Any thread.

    UserEntry entry() {
        return entry;
    }

    void entry(UserEntry entry) {
        this.entry = entry;
    }

    /** Hands {@code delivery} to this session; called under its user's entry lock. */
    void enqueue(Delivery delivery) {
        handoff.add(delivery);
    }

    /**
     * Something was stored in this user's inbox while they were online here: the session reads it
     * before anything handed to it after this call.
     */
    public void poke() {
        handoff.add(POKE);
    }

    /** Writes {@code answer} to this session's client with the next drain. */
    public void answer(Envelope answer) {
        answers.add(answer);
        handoff.wake();
    }

    /**
     * Tells this session's client, with the next drain, that its message {@code sequence} reached
     * {@code sessions} sessions.
     */
    public void delivered(long sequence, int sessions) {
        answers.delivered(sequence, sessions);
        handoff.wake();
    }

    // Owner thread.

    private void drain() {
        handoff.draining();
        if (isClosing()) {
            // closed() took what was queued when the session left its entry; nothing should come
            // after, but should anything, it goes where the rest went rather than nowhere.
            List<Delivery> late = new ArrayList<>();
            for (Delivery delivery; (delivery = handoff.poll()) != null; ) {
                if (delivery != POKE && delivery.position() == null) {
                    late.add(delivery);
                }
            }
            if (!late.isEmpty()) {
                writer.store(late, () -> { });
            }
            answers.clear(); // the connection is closing: the client asks again on its next one
            return;
        }
        boolean wrote = false;
        for (Delivery delivery; (delivery = handoff.poll()) != null; ) {
            wrote |= accept(delivery);
            if (state == State.CLOSING) {
                return; // the window overflowed: the rest goes to the inbox with it
            }
        }
        boolean answered = answers.writeTo(connection);
        if (wrote) {
            flush();
        } else if (answered) {
            connection.flush();
        }
        if (answered && mayResume != null && mayResume.getAsBoolean()) {
            mayResume = null;
            connection.readPaused(false);
        }
    }

    /**
     * Too many of this client's messages are routed and not resolved: reads no more of it until
     * {@code resumeWhen} says so, asked after answers are written (slowing the sender, not the server).
     */
    public void pauseReading(BooleanSupplier resumeWhen) {
        if (mayResume == null) {
            mayResume = resumeWhen;
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
            if (isNew(delivery)) {
                write(delivery, null);
                return true;
            }
            return false;
        }
        held.add(delivery);
        if (held.size() > node.limits().heldMessages()) {
            storeHeld();
        }
        return false;
    }

    private void write(Delivery delivery, InboxStore.Entry entry) {
        window.add(delivery, entry);
        connection.write(delivery.envelope());
        if (window.isOver(node.limits())) {
            overflow();
        }
    }

    private void flush() {
        connection.flush();
        window.report(node.counter());
    }

    /** Login done and the session in the registry (live messages are held from now on): reads the inbox. */
    public void start() {
        catchUp();
    }

    /** Something was stored in this user's inbox while they were online here: read it. */
    private void readInbox() {
        if (state == State.LIVE) {
            state = State.CATCHING_UP;
            catchUp();
        } else if (state == State.CATCHING_UP) {
            reader.wanted();
            catchUp();
        }
    }

    private void catchUp() {
        if (state == State.CATCHING_UP) {
            reader.ask(window.size());
        }
    }

    private void pageRead(List<InboxReader.Read> page, boolean more) {
        if (state != State.CATCHING_UP) {
            return;
        }
        for (InboxReader.Read read : page) {
            if (read.inboxEntry() != null || isNew(read.delivery())) {
                write(read.delivery(), read.inboxEntry());
            }
            reader.advance(read);
            if (state != State.CATCHING_UP) {
                return;
            }
        }
        flush();
        if (more) {
            catchUp(); // more to read, or stored since this page was asked for
        } else {
            goLive();
        }
    }

    /**
     * False for a message to a group at or before the last one of that group written here: a
     * message posted while the session read the group's log reaches it both ways, and is written once.
     */
    private boolean isNew(Delivery delivery) {
        String position = delivery.position();
        if (position == null) {
            return true;
        }
        String group = delivery.group();
        if (groupsWritten == null) {
            groupsWritten = new HashMap<>();
        }
        String last = groupsWritten.get(group);
        if (last != null && LogPosition.compare(position, last) <= 0) {
            return false;
        }
        groupsWritten.put(group, position);
        return true;
    }

    private void goLive() {
        state = State.LIVE;
        if (!goneLive) {
            goneLive = true;
            node.counter().caughtUp(window.writtenFromInbox());
        }
        for (Delivery delivery; (delivery = held.poll()) != null; ) {
            if (isNew(delivery)) {
                write(delivery, null);
            }
            if (state != State.LIVE) {
                return;
            }
        }
        flush();
    }

    /** Stores the held messages behind what is being read, so that memory stays bounded. */
    private void storeHeld() {
        List<Delivery> storing = new ArrayList<>(held.size());
        for (Delivery delivery : held) {
            if (delivery.position() == null) {
                storing.add(delivery); // a group's message is in the group's log, read after the inbox
            }
        }
        held.clear();
        reader.storedBehind();
        writer.store(storing, () -> { });
    }

    /**
     * The client acknowledged {@code received} deliveries in all on this connection.
     *
     * @return false when the number is impossible (more than was written, or less than before)
     */
    public boolean acknowledged(long received) {
        Window.Acknowledged done = window.acknowledge(received);
        if (done == null) {
            return false;
        }
        if (!done.fromInbox().isEmpty()) {
            writer.remove(done.fromInbox());
        }
        done.groups().forEach((group, position) -> node.groupLogs().acknowledged(group, user, position));
        if (state == State.CATCHING_UP && reader.isWanted()) {
            catchUp();
        }
        return true;
    }

    /**
     * A newer connection of the same client logged in while this one is still open here: its client
     * gave up on it (a server frozen past the client's idle timeout, a connection cut without either
     * end seeing it) and will never acknowledge what it holds, and sends what it had not had
     * answered again on the newer one. Closes this session on its owner thread, which queues the
     * store of what it had not acknowledged on the user's lane, then runs {@code then} there: the
     * newer session, started after it, reads the inbox behind that store, so what this one held
     * reaches the client before anything newer (not after it, once this connection's idle timeout
     * has passed). Frames still arriving here are ignored from then on.
     */
    public void replace(Runnable then) {
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
    public boolean isClosing() {
        return state == State.CLOSING || state == State.CLOSED;
    }

    /** The window is over its limits: the client is not reading. */
    private void overflow() {
        SessionLimits limits = node.limits();
        log.warn("Closing session {}: {} messages ({} bytes) unacknowledged", this, window.size(), window.bytes());
        connection.close(ErrorReply.Code.BAD_REQUEST, "you are not reading your messages fast enough ("
                + window.size() + " messages of " + window.bytes() + " bytes unacknowledged; the most is "
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
     * those read from the inbox, which are there still), in order, before running its
     * {@code onClosed}.
     */
    public void closed() {
        if (isClosing()) {
            return;
        }
        state = State.CLOSING;
        List<Delivery> storing = window.takeLive();
        storing.addAll(held);
        held.clear();
        // A group's message waits in the group's log, behind the member's cursor: not in the inbox.
        storing.removeIf(delivery -> delivery.position() != null);
        // Leaving and queueing the store happen under the user's entry lock: a message routed once
        // the session is gone is stored on the lane behind these, never ahead of them; one on the
        // lane already joins them until the store begins (UserEntry).
        node.users().remove(this, storing, () -> {
            for (Delivery delivery; (delivery = handoff.poll()) != null; ) {
                if (delivery != POKE && delivery.position() == null) {
                    storing.add(delivery);
                }
            }
            writer.store(() -> node.users().stored(this, storing), () -> onOwner(() -> {
                state = State.CLOSED;
                onClosed.accept(this);
            }));
        });
    }

    /**
     * Runs {@code task} on the owner thread; here, if that thread is gone: a session whose store
     * completes while the server stops finds its event loop terminated, and nothing else runs on
     * the session by then.
     */
    private void onOwner(Runnable task) {
        try {
            connection.owner().execute(task);
        } catch (RejectedExecutionException stopping) {
            task.run();
        }
    }

    @Override
    public String toString() {
        return user + "#" + id + "@" + connection.remote();
    }
}
