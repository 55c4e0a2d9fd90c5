package dev.cim.server.chat;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Login;
import dev.cim.server.account.AccountService;
import dev.cim.server.chat.group.Groups;
import dev.cim.server.chat.history.History;
import dev.cim.server.chat.schedule.ScheduledRequests;
import dev.cim.server.chat.session.Connection;
import dev.cim.server.chat.session.Session;
import java.time.Clock;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chat core as a transport sees it: a connection logs in, then every frame it sends is handed
 * here, and its closing is reported here. Nothing in it knows Netty or Redis; a transport decodes
 * frames and calls in, the stores sit behind ports. Each request goes to the part that serves it:
 * {@link Logins}, {@link Sends}, {@link ScheduledRequests}, {@link Groups}, {@link History}.
 *
 * <h3>Threads</h3>
 * Calls come on the connection's owner thread and never block it: password hashing and other
 * blocking lookups run on the {@code blocking} executor, store work on the user's lane.
 */
public final class ChatService {

    private static final Logger log = LoggerFactory.getLogger(ChatService.class);

    /** What became of a login, told on the connection's owner thread. */
    public interface LoginListener {
        /** Accepted: the transport hands {@code client} back with each frame and at the close. */
        void loggedIn(ClientSession client);

        /** Refused, and answered: the connection closes. */
        void refused(String reason);
    }

    /** The parts that serve a logged-in client's requests. */
    record Parts(Sends sends, ScheduledRequests scheduled, Groups groups, History history,
            AccountSettingsService settings, OnlineUsers online) {
    }

    private final Logins logins;
    private final Sends sends;
    private final ScheduledRequests scheduled;
    private final Groups groups;
    private final History history;
    private final AccountSettingsService settings;
    private final OnlineUsers online;
    private final AccountService accounts;
    private final Executor blocking;
    private final Clock clock;

    ChatService(Logins logins, Parts parts, AccountService accounts, Executor blocking,
            Clock clock) {
        this.logins = logins;
        this.sends = parts.sends();
        this.scheduled = parts.scheduled();
        this.groups = parts.groups();
        this.history = parts.history();
        this.settings = parts.settings();
        this.online = parts.online();
        this.accounts = accounts;
        this.blocking = blocking;
        this.clock = clock;
    }

    /**
     * A login request on a connection not logged in. Answers it; on success the listener gets the
     * client, whose frames the transport then hands to {@link #received}.
     */
    public void login(Connection connection, Login login, LoginListener listener) {
        logins.login(connection, login, listener);
    }

    /** A frame from a logged-in client; on its connection's owner thread. */
    public void received(ClientSession client, Envelope envelope) {
        Session session = client.session;
        if (session.isClosing()) {
            return; // replaced or closed: its client sends what was not answered again, on its new connection
        }
        Connection connection = session.connection();
        long id = envelope.getRequestId();
        switch (envelope.getKindCase()) {
            case SEND -> sends.send(client, id, envelope.getSend());
            case ACK -> {
                long received = envelope.getAck().getReceived();
                if (!session.acknowledged(received)) {
                    connection.close(ErrorReply.Code.BAD_REQUEST, "acknowledged " + received
                            + " messages on this connection (expected: at most the number delivered, and no fewer than before)");
                    session.closed();
                }
            }
            case PING -> connection.send(Envelopes.pong(envelope, clock.millis()));
            case ONLINE_USERS_REQUEST -> online.answer(connection, id);
            case SCHEDULE -> unlessTooFast(session, id, "not scheduled", () -> scheduled.handle(session, envelope));
            case EDIT, CANCEL, RELEASE, LIST_SCHEDULED, SKIP, LIST_SENT -> scheduled.handle(session, envelope);
            case SET_SETTINGS -> unlessTooFast(session, id, "not changed", () -> settings.set(session, id,
                    envelope.getSetSettings()));
            case GROUP_REQUEST -> unlessTooFast(session, id, "not done", () -> groups.handle(session, id,
                    envelope.getGroupRequest()));
            case HISTORY_REQUEST -> unlessTooFast(session, id, "not read", () -> history.page(session, id,
                    envelope.getHistoryRequest()));
            case SEARCH_REQUEST -> unlessTooFast(session, id, "not searched", () -> history.search(session, id,
                    envelope.getSearchRequest()));
            case LOGOUT -> logOut(client);
            case LOGIN -> connection.send(Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "already logged in as "
                    + session.user() + " (expected: one Login per connection; to log in as another user, connect again)",
                    false));
            default -> connection.send(Envelopes.error(id, ErrorReply.Code.BAD_REQUEST,
                    "the server does not accept " + envelope.getKindCase() + " from clients", false));
        }
    }

    /** Ends the client's session token, then its connection. */
    private void logOut(ClientSession client) {
        Session session = client.session;
        blocking.execute(() -> {
            try {
                accounts.logOut(session.user(), client.token);
            } catch (RuntimeException e) {
                log.warn("Could not end the session token of {} at its logout: {}", session, e.toString());
            }
            session.connection().owner().execute(() -> {
                session.connection().close(ErrorReply.Code.CODE_UNSPECIFIED, "logged out");
                session.closed();
            });
        });
    }

    /** Runs {@code request}, unless its user is sending requests faster than allowed (then says so). */
    private void unlessTooFast(Session session, long id, String notDone, Runnable request) {
        Envelope refusal = sends.tooFast(session, id, notDone);
        if (refusal != null) {
            session.connection().send(refusal);
        } else {
            request.run();
        }
    }

    /** The client's connection is gone; on its owner thread. */
    public void closed(ClientSession client) {
        client.session.closed();
    }
}
