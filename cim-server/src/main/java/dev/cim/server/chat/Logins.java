package dev.cim.server.chat;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.UserNames;
import dev.cim.common.protocol.proto.AccountSettings;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Login;
import dev.cim.common.protocol.proto.LoginResult;
import dev.cim.server.account.AccountService;
import dev.cim.server.account.LoginOutcome;
import dev.cim.server.chat.origin.Origin;
import dev.cim.server.chat.origin.Origins;
import dev.cim.server.chat.session.Connection;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.Sessions;
import dev.cim.server.store.PresenceStore;
import dev.cim.server.store.StoreFullException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A session's life on this node, from the login to the close: the account check (password hashing
 * on the {@code blocking} executor), the client's origin (on the user's lane), the
 * session opened and, when the same client is back before its old connection was seen to end, put
 * in place of the old one; the presence written as sessions come and go.
 *
 * <h3>Order at login</h3>
 * Local routing sees a new session before the store does, and the store before the session reads
 * the inbox: a message sent meanwhile is held by the session, or found in the inbox, never missed.
 */
final class Logins {

    private static final Logger log = LoggerFactory.getLogger(Logins.class);

    /** The least wait a login refused for the store's sake is told to take before it tries again. */
    static final long STORAGE_RETRY_MILLIS = 1000;

    private final AccountService accounts;
    private final AccountSettingsService settings;
    private final PresenceStore presence;
    private final Supplier<List<String>> nodes;
    private final Origins origins;
    private final Sessions sessions;
    private final Executor blocking;
    private final ChatMetrics metrics;
    private final LoginTerms terms;

    /**
     * What a login reads and writes: accounts and their settings, origins, sessions, presence, and
     * the live nodes' addresses as of the last heartbeat (this one first), which the client is told.
     */
    record Parts(AccountService accounts, AccountSettingsService settings, Origins origins, Sessions sessions,
            PresenceStore presence, Supplier<List<String>> nodes) {
    }

    private final Consumer<String> entered;

    /**
     * @param blocking runs password hashing and the other blocking work of logins
     * @param entered  told the user of each session that has started here (its inbox being read)
     */
    Logins(Parts parts, Executor blocking, ChatMetrics metrics, LoginTerms terms, Consumer<String> entered) {
        this.accounts = parts.accounts();
        this.settings = parts.settings();
        this.presence = parts.presence();
        this.nodes = parts.nodes();
        this.origins = parts.origins();
        this.sessions = parts.sessions();
        this.entered = entered;
        this.blocking = blocking;
        this.metrics = metrics;
        this.terms = terms;
    }

    /** A login request on a connection not logged in: answers it, and tells {@code listener}. */
    void login(Connection connection, Login login, ChatService.LoginListener listener) {
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
            if (!connection.isOpen()) {
                // Its connection ended while the login waited its turn (the login deadline, the
                // client gone): no password hash for nobody, or a flood of logins that give up
                // keeps the queue full of work whose answer nobody reads.
                metrics.loginAbandoned();
                return;
            }
            LoginOutcome outcome;
            try {
                outcome = accounts.login(attempt);
            } catch (RuntimeException e) {
                log.error("Login of {} failed: {}", name, e.toString());
                connection.owner().execute(() -> refuse(connection, listener, name,
                        StoreFullException.describe(e) + "; try again", storageRetry()));
                return;
            }
            if (outcome instanceof LoginOutcome.Refused refused) {
                connection.owner().execute(() -> refuse(connection, listener, name, refused.reason(),
                        refused.retryAfter().toMillis()));
                return;
            }
            LoginOutcome.Accepted accepted = (LoginOutcome.Accepted) outcome;
            sessions.laneOf(accepted.user()).execute(() -> attach(connection, listener, accepted, login.getOrigin()));
        });
    }

    /** On the user's lane: loads the origin, the groups and the settings, then opens the session on the owner. */
    private void attach(Connection connection, ChatService.LoginListener listener, LoginOutcome.Accepted accepted,
            long originId) {
        String user = accepted.user();
        Origin origin;
        List<String> groups;
        AccountSettings account;
        try {
            origin = origins.get(user, originId);
            groups = sessions.groupsLoggingIn(user);
            account = settings.of(user);
        } catch (RuntimeException e) {
            log.error("Login of {} failed: {}", user, e.toString());
            connection.owner().execute(() -> refuse(connection, listener, user,
                    StoreFullException.describe(e) + "; try again", storageRetry()));
            return;
        }
        List<String> addresses = nodes.get();
        connection.owner().execute(() -> open(connection, listener, accepted, origin, addresses, groups, account));
    }

    private void open(Connection connection, ChatService.LoginListener listener, LoginOutcome.Accepted accepted,
            Origin origin, List<String> nodes, List<String> groups, AccountSettings account) {
        if (!connection.isOpen()) {
            return;
        }
        String user = accepted.user();
        boolean created = accepted.created();
        Session session = sessions.open(user, origin.id(), connection, groups, closed -> closed(closed, origin));
        Session previous = origins.attach(origin, session);
        listener.loggedIn(new ClientSession(session, origin, accepted.token()));
        Envelope welcome = Envelopes.loginAccepted(LoginResult.newBuilder()
                .setAccountCreated(created)
                .setUserName(user)
                .setSessionToken(accepted.token())
                .setNodeId(presence.nodeId())
                .setHeartbeatIntervalMillis(terms.heartbeat().toMillis())
                .setMaxTextLength(terms.maxTextLength())
                .setMaxScheduleMillis(terms.maxDelay().toMillis())
                .setMaxScheduled(terms.maxScheduled())
                .setMessagesPerSecond(terms.messagesPerSecond())
                .setMessageBurst(terms.messageBurst())
                .setSettings(account)
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
        session.connection().send(welcome);
        sessions.users().add(session);
        updatePresence(session.user());
        session.start();
        entered.accept(session.user());
    }

    /**
     * When a client refused because the store did not answer should try again: soon, and spread over
     * a second so that the clients of a node do not all come back at once. A refusal with a wait is
     * one the client library waits out and tries again (as while Redis fails over), where one
     * without is final (a wrong password).
     */
    private static long storageRetry() {
        return STORAGE_RETRY_MILLIS + ThreadLocalRandom.current().nextLong(STORAGE_RETRY_MILLIS);
    }

    private void refuse(Connection connection, ChatService.LoginListener listener, String user, String reason,
            long retryAfterMillis) {
        metrics.loginRefused();
        log.warn("Login of '{}' from {} refused: {}", UserNames.isValid(user) ? user : "(invalid name)",
                connection.remote(), reason);
        listener.refused(reason);
        connection.send(Envelopes.loginRefused(reason, retryAfterMillis));
        connection.close(ErrorReply.Code.NOT_LOGGED_IN, "login refused: " + reason);
    }

    /** A session closed, everything it held stored; on its owner thread. */
    private void closed(Session session, Origin origin) {
        origins.detach(origin, session);
        updatePresence(session.user());
        metrics.loggedOut();
        log.info("Session {} closed", session);
    }

    /** Writes, on the user's lane, how many sessions the user has here now. */
    private void updatePresence(String user) {
        sessions.laneOf(user).execute(() -> {
            try {
                presence.sessions(user, sessions.users().sessionCount(user));
            } catch (RuntimeException e) {
                // The presence key expires by itself, or is renewed by the next heartbeat.
                log.warn("Could not update the presence of {}: {}", user, e.toString());
            }
        });
    }
}
