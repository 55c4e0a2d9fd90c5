package dev.cim.server.chat;

import com.google.protobuf.ByteString;
import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.MessageIds;
import dev.cim.common.protocol.UserNames;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Login;
import dev.cim.common.protocol.proto.LoginResult;
import dev.cim.common.protocol.proto.Receipt;
import dev.cim.common.protocol.proto.Send;
import dev.cim.server.account.AccountService;
import dev.cim.server.account.LoginOutcome;
import dev.cim.server.store.InboxStore;
import dev.cim.server.store.PresenceStore;
import dev.cim.server.store.StoreFullException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chat core as a transport sees it: a connection logs in, then every frame it sends is handed
 * here, and its closing is reported here. Nothing in it knows Netty or Redis; a transport decodes
 * frames and calls in, the stores sit behind ports.
 *
 * <h3>Threads</h3>
 * Calls come on the connection's owner thread and never block it: password hashing runs on the
 * {@code blocking} executor, store work on the user's lane ({@link UserLanes}).
 */
public final class ChatService {

    private static final Logger log = LoggerFactory.getLogger(ChatService.class);
    /** Names per online-users frame: 1,000 names of up to 32 characters stay far under a frame. */
    private static final int NAMES_PER_FRAME = 1000;

    /** What became of a login, told on the connection's owner thread. */
    public interface LoginListener {
        void loggedIn(Session session);

        void refused(String reason);
    }

    private final AccountService accounts;
    private final LocalUsers users;
    private final UserLanes lanes;
    private final InboxStore inbox;
    private final PresenceStore presence;
    private final Origins origins;
    private final Router router;
    private final ScheduledRequests scheduled;
    private final Limits limits;
    private final Clock clock;
    private final Executor blocking;
    private final Duration heartbeat;
    private final ChatMetrics metrics;
    private final ChatMetrics.Written written;
    private final SendRate sendRate;
    private final AtomicLong lastSessionId = new AtomicLong();

    ChatService(AccountService accounts, LocalUsers users, UserLanes lanes, InboxStore inbox, PresenceStore presence,
            Origins origins, Router router, ScheduledRequests scheduled, Limits limits, Clock clock, Executor blocking,
            Duration heartbeat, ChatMetrics metrics, SendRate sendRate) {
        this.accounts = accounts;
        this.users = users;
        this.lanes = lanes;
        this.inbox = inbox;
        this.presence = presence;
        this.origins = origins;
        this.router = router;
        this.scheduled = scheduled;
        this.limits = limits;
        this.clock = clock;
        this.blocking = blocking;
        this.heartbeat = heartbeat;
        this.metrics = metrics;
        this.written = metrics.written();
        this.sendRate = sendRate;
    }

    /** The users and sessions on this node. */
    public LocalUsers users() {
        return users;
    }

    // Login.

    /**
     * A login request on a connection not logged in. Answers it; on success the listener gets the
     * session, whose frames the transport then hands to {@link #received}.
     */
    public void login(Connection connection, Login login, LoginListener listener) {
        String name = login.getUserName();
        Optional<String> badName = UserNames.problem(name);
        if (badName.isPresent()) {
            refuse(connection, listener, name, badName.get(), 0);
            return;
        }
        if (login.getOrigin() == 0) {
            refuse(connection, listener, name, "the login carries no origin (expected: a random non-zero number)", 0);
            return;
        }
        AccountService.Attempt attempt = new AccountService.Attempt(name, login.getPassword(), login.getToken(),
                connection.remoteHost());
        blocking.execute(() -> {
            LoginOutcome outcome;
            try {
                outcome = accounts.login(attempt);
            } catch (RuntimeException e) {
                log.error("Login of {} failed: {}", name, e.toString());
                connection.owner().execute(() -> refuse(connection, listener, name,
                        StoreFullException.describe(e) + "; try again", 0));
                return;
            }
            if (outcome instanceof LoginOutcome.Refused refused) {
                connection.owner().execute(() -> refuse(connection, listener, name, refused.reason(),
                        refused.retryAfter().toMillis()));
                return;
            }
            LoginOutcome.Accepted accepted = (LoginOutcome.Accepted) outcome;
            lanes.of(accepted.user()).execute(() -> attach(connection, listener, accepted, login.getOrigin()));
        });
    }

    /** On the user's lane: loads the origin and the node list, then opens the session on the owner. */
    private void attach(Connection connection, LoginListener listener, LoginOutcome.Accepted accepted, long originId) {
        String user = accepted.user();
        Origin origin;
        List<String> nodes;
        try {
            origin = origins.get(user, originId);
            nodes = nodeAddresses();
        } catch (RuntimeException e) {
            log.error("Login of {} failed: {}", user, e.toString());
            connection.owner().execute(() -> refuse(connection, listener, user,
                    StoreFullException.describe(e) + "; try again", 0));
            return;
        }
        connection.owner().execute(() -> open(connection, listener, accepted, origin, nodes));
    }

    private void open(Connection connection, LoginListener listener, LoginOutcome.Accepted accepted, Origin origin,
            List<String> nodes) {
        if (!connection.isOpen()) {
            return;
        }
        String user = accepted.user();
        boolean created = accepted.created();
        Session session = new Session(lastSessionId.incrementAndGet(), user, origin, connection, users, inbox,
                lanes.of(user), limits, written, this::sessionClosed);
        Session previous = origin.current();
        origin.attach(session, System.nanoTime());
        listener.loggedIn(session);
        Envelope welcome = Envelopes.loginAccepted(LoginResult.newBuilder()
                .setAccountCreated(created)
                .setUserName(user)
                .setSessionToken(accepted.token())
                .setNodeId(presence.nodeId())
                .setHeartbeatIntervalMillis(heartbeat.toMillis())
                .setMaxTextLength(limits.maxTextLength())
                .setMaxScheduleMillis(scheduled.maxDelay().toMillis())
                .addAllNodes(nodes));
        metrics.loggedIn(created);
        log.info("{} logged in{}", session, created ? ", account created" : "");
        if (previous == null) {
            enter(session, welcome);
            return;
        }
        // The same client, back before its old connection was seen to end: the old session goes
        // first (what it held to the inbox), and the new one starts where it stopped. What the old
        // one routed and is still on a lane is followed there through the origin's gate.
        previous.replace(() -> connection.owner().execute(() -> enter(session, welcome)));
    }

    /** On the session's owner thread: tells the client it is logged in, joins the registry, reads the inbox. */
    private void enter(Session session, Envelope welcome) {
        if (session.isClosing()) {
            return; // its connection closed before it could start: nothing was handed to it
        }
        session.connection.send(welcome);
        // Local routing sees the session before the store does, and the store before the inbox is
        // read: a message sent meanwhile is held here, or found in the inbox, never missed.
        users.add(session);
        lanes.of(session.user).execute(() -> updatePresence(session.user));
        session.start();
    }

    private void refuse(Connection connection, LoginListener listener, String user, String reason,
            long retryAfterMillis) {
        metrics.loginRefused();
        log.warn("Login of '{}' from {} refused: {}", UserNames.isValid(user) ? user : "(invalid name)",
                connection.remote(), reason);
        listener.refused(reason);
        connection.send(Envelopes.loginRefused(reason, retryAfterMillis));
        connection.close(ErrorReply.Code.NOT_LOGGED_IN, "login refused: " + reason);
    }

    /** The addresses of the live nodes, this one first. */
    private List<String> nodeAddresses() {
        Map<String, String> live = presence.liveNodes();
        List<String> nodes = new ArrayList<>();
        String own = live.get(presence.nodeId());
        if (own != null) {
            nodes.add(own);
        }
        live.forEach((node, address) -> {
            if (!node.equals(presence.nodeId())) {
                nodes.add(address);
            }
        });
        return nodes;
    }

    // Requests of a logged-in session.

    /** A frame from a logged-in session; on its owner thread. */
    public void received(Session session, Envelope envelope) {
        if (session.isClosing()) {
            return; // replaced or closed: its client sends what was not answered again, on its new connection
        }
        long id = envelope.getRequestId();
        switch (envelope.getKindCase()) {
            case SEND -> send(session, id, envelope.getSend());
            case ACK -> {
                long received = envelope.getAck().getReceived();
                if (!session.acknowledged(received)) {
                    session.connection.close(ErrorReply.Code.BAD_REQUEST, "acknowledged " + received
                            + " messages on this connection (expected: at most the number delivered, and no fewer than before)");
                    session.closed();
                }
            }
            case PING -> session.connection.send(Envelopes.pong(envelope, clock.millis()));
            case ONLINE_USERS_REQUEST -> onlineUsers(session, id);
            case SCHEDULE -> {
                Envelope refusal = tooFast(session, id, "not scheduled");
                if (refusal != null) {
                    session.connection.send(refusal);
                } else {
                    scheduled.handle(session, envelope);
                }
            }
            case EDIT, CANCEL, RELEASE, LIST_SCHEDULED -> scheduled.handle(session, envelope);
            case LOGIN -> session.connection.send(Envelopes.error(id, ErrorReply.Code.BAD_REQUEST,
                    "already logged in as " + session.user, false));
            default -> session.connection.send(Envelopes.error(id, ErrorReply.Code.BAD_REQUEST,
                    "the server does not accept " + envelope.getKindCase() + " from clients", false));
        }
    }

    private void send(Session session, long sequence, Send send) {
        metrics.received();
        Origin origin = session.origin;
        if (sequence <= 0) {
            session.connection.send(Envelopes.error(sequence, ErrorReply.Code.BAD_REQUEST,
                    "a message needs a request id above 0 (its sequence number)", false));
            return;
        }
        if (!origin.claim(sequence)) {
            repeat(session, sequence);
            return;
        }
        // The text's bytes as they came, taken before getText() replaces them with a String: the
        // chat carries them as they are, so it is neither measured nor encoded again.
        ByteString text = send.getTextBytes();
        Envelope refusal = tooFast(session, sequence, "not sent");
        if (refusal == null) {
            refusal = ChatRules.recipientProblem(send.getRecipient())
                    .or(() -> ChatRules.textProblem(send.getText(), limits.maxTextLength()))
                    .map(problem -> Envelopes.error(sequence, ErrorReply.Code.BAD_REQUEST, problem, false))
                    .orElse(null);
        }
        if (refusal != null) {
            origin.answered(sequence, refusal);
            session.connection.send(refusal);
            return;
        }
        Chat chat = Chat.newBuilder()
                .setId(MessageIds.of(origin.origin, sequence))
                .setSender(session.user)
                .setRecipient(UserNames.canonical(send.getRecipient()))
                .setTextBytes(text)
                .setSentAtMillis(clock.millis())
                .build();
        // The id encoded once, here: the chat keeps the bytes for its deliveries, the receipt reuses them.
        Tracker tracker = new Tracker(sequence, chat.getIdBytes(), chat.getRecipient(), receiptTo(origin, metrics.timer()));
        origin.pending(tracker);
        router.route(chat, tracker, session, origin.gate);
        if (origin.pendingCount() > limits.pendingPerOrigin()) {
            session.pauseReading();
        }
    }

    /**
     * A refusal when {@code session}'s user is sending faster than allowed, else null.
     *
     * @param notDone what the refusal says was not done: "not sent", "not scheduled"
     */
    Envelope tooFast(Session session, long requestId, String notDone) {
        long waitNanos = sendRate.take(session.user);
        if (waitNanos == 0) {
            return null;
        }
        long waitMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(waitNanos));
        metrics.rateLimited();
        return Envelopes.rateLimited(requestId, notDone + ": more than " + limits.messagesPerSecond()
                + " messages per second from " + session.user + " (expected: a pause of " + waitMillis
                + " ms before the next)", waitMillis);
    }

    /** A request number seen before: answered with its first outcome, or left to its receipt still to come. */
    private void repeat(Session session, long sequence) {
        Origin origin = session.origin;
        if (origin.isPending(sequence)) {
            return; // the receipt goes to the origin's current session, this one, when it comes
        }
        Envelope first = origin.answerOf(sequence);
        Envelope answer;
        if (first == null) {
            answer = Envelopes.receipt(sequence, Receipt.Outcome.HANDLED_EARLIER, MessageIds.of(origin.origin, sequence),
                    0, "", true);
        } else if (first.hasReceipt()) {
            answer = first.toBuilder().setReceipt(first.getReceipt().toBuilder().setResend(true)).build();
        } else {
            answer = first;
        }
        session.connection.send(answer);
    }

    /** Where a tracked message's outcome goes: a receipt (or refusal) to its origin's current session. */
    private Tracker.Outcome receiptTo(Origin origin, ChatMetrics.Timing timing) {
        return (tracker, sessions, stored, failure) -> {
            timing.done(stored, failure != null);
            Session current = origin.current();
            if (failure == null && !stored) {
                // The common outcome: batched with others into one Receipts frame.
                origin.delivered(tracker.sequence(), sessions);
                if (current != null) {
                    current.delivered(tracker.sequence(), sessions);
                }
                return;
            }
            Envelope answer = failure != null
                    ? Envelopes.error(tracker.sequence(), failure.code(), failure.reason(), false)
                    : Envelopes.receipt(tracker.sequence(), Receipt.Outcome.STORED, tracker.messageId(), sessions,
                            tracker.recipient(), false);
            origin.answered(tracker.sequence(), answer);
            if (current != null) {
                current.answer(answer);
            }
        };
    }

    private void onlineUsers(Session session, long id) {
        blocking.execute(() -> {
            List<String> online;
            try {
                online = presence.onlineUsers();
            } catch (RuntimeException e) {
                session.connection.owner().execute(() -> session.connection.send(Envelopes.error(id,
                        ErrorReply.Code.INTERNAL, "the server's storage is unavailable; try again", false)));
                return;
            }
            session.connection.owner().execute(() -> {
                int total = online.size();
                if (total == 0) {
                    session.connection.send(Envelopes.onlineUsersReply(id, List.of(), false, 0));
                    return;
                }
                for (int from = 0; from < total; from += NAMES_PER_FRAME) {
                    int to = Math.min(total, from + NAMES_PER_FRAME);
                    session.connection.write(Envelopes.onlineUsersReply(id, online.subList(from, to), to < total, total));
                }
                session.connection.flush();
            });
        });
    }

    // Closing.

    /** The session's connection is gone; on its owner thread. */
    public void closed(Session session) {
        session.closed();
    }

    private void sessionClosed(Session session) {
        session.origin.detach(session, System.nanoTime());
        lanes.of(session.user).execute(() -> updatePresence(session.user));
        metrics.loggedOut();
        log.info("Session {} closed", session);
    }

    /** On the user's lane: writes how many sessions the user has here now. */
    private void updatePresence(String user) {
        try {
            Integer count = users.sessionCounts().get(user);
            presence.sessions(user, count == null ? 0 : count);
        } catch (RuntimeException e) {
            // The presence key expires by itself, or is renewed by the next heartbeat.
            log.warn("Could not update the presence of {}: {}", user, e.toString());
        }
    }

    /** Called with every session when the node stops: what they have not acknowledged goes to the inbox. */
    public void closeAll(Consumer<Session> beforeClose) {
        for (Session session : users.sessions()) {
            session.connection.owner().execute(() -> {
                beforeClose.accept(session);
                session.closed();
            });
        }
    }
}
