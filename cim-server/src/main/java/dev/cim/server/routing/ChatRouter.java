package dev.cim.server.routing;

import dev.cim.common.protocol.ChatMessage;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.server.session.Session;
import dev.cim.server.session.SessionRegistry;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Delivers stamped chat messages. The rules, as a chat user expects them:
 * <ul>
 *   <li>A message to {@link ChatMessage#EVERYONE} goes to every online session but the one that sent
 *       it; the sender's other terminals get it too, so each shows the whole conversation.</li>
 *   <li>A private message goes to every session of the recipient and to the sender's other
 *       sessions.</li>
 *   <li>A private message to a known user who is offline is appended to their offline inbox, to be
 *       delivered in order at their next login; the outcome tells the sender so.</li>
 *   <li>A private message to a name without an account is not sent anywhere.</li>
 * </ul>
 * Recipients on this node are found in the local {@link SessionRegistry}: routing between them costs
 * no Redis round trip. Redis is asked only when the recipient is not here (is the user on another
 * node? does the account exist? store in the inbox), or when other nodes are alive, to relay to
 * them ({@link RemoteNodes}). A sender's other terminals on other nodes get a copy of a private
 * message only where the recipient is too.
 */
public final class ChatRouter {

    private final SessionRegistry sessions;
    private final Predicate<String> accountExists;
    private final OfflineInbox inbox;
    private final RemoteNodes remote;

    /**
     * @param accountExists whether a user name has an account; asked only for recipients online on
     *                      no node
     */
    public ChatRouter(SessionRegistry sessions, Predicate<String> accountExists, OfflineInbox inbox,
            RemoteNodes remote) {
        this.sessions = sessions;
        this.accountExists = accountExists;
        this.inbox = inbox;
        this.remote = remote;
    }

    /**
     * Routes {@code message} if that needs nothing but this node's memory: no other node is alive,
     * and it is a broadcast, or its recipient (or its sender, writing to themself) is here. Never
     * calls Redis, so it is safe on an I/O thread. Sends nothing when it answers empty; the caller
     * then uses {@link #route}.
     */
    public Optional<RouteOutcome> routeLocally(Session from, ChatMessage message) {
        if (remote.peers() > 0) {
            return Optional.empty();
        }
        Envelope envelope = Envelopes.chat(0, message);
        if (message.isBroadcast()) {
            return Optional.of(new RouteOutcome.Delivered(message.id(), sendToAllBut(sessions.all(), from, envelope), 0));
        }
        boolean toSelf = message.recipient().equals(from.user());
        int delivered = sendToAllBut(sessions.sessionsOf(message.recipient()), from, envelope);
        if (delivered == 0 && !toSelf) {
            return Optional.empty();
        }
        if (!toSelf) {
            sendToAllBut(sessions.sessionsOf(from.user()), from, envelope);
        }
        return Optional.of(new RouteOutcome.Delivered(message.id(), delivered, 0));
    }

    /** Routes {@code message}, already stamped, sent from {@code from}. May call Redis. */
    public RouteOutcome route(Session from, ChatMessage message) {
        Envelope envelope = Envelopes.chat(0, message);
        if (message.isBroadcast()) {
            int delivered = sendToAllBut(sessions.all(), from, envelope);
            int peers = remote.peers();
            if (peers > 0) {
                remote.broadcast(message);
            }
            return new RouteOutcome.Delivered(message.id(), delivered, peers);
        }
        String recipient = message.recipient();
        boolean toSelf = recipient.equals(from.user());
        int delivered = sendToAllBut(sessions.sessionsOf(recipient), from, envelope);
        boolean here = delivered > 0 || toSelf;
        Set<String> elsewhere = remote.peers() > 0 ? remote.hosting(recipient) : Set.of();
        elsewhere.forEach(node -> remote.send(node, message));
        if (here || !elsewhere.isEmpty()) {
            if (!toSelf) {
                sendToAllBut(sessions.sessionsOf(from.user()), from, envelope);
            }
            return new RouteOutcome.Delivered(message.id(), delivered, elsewhere.size());
        }
        if (!accountExists.test(recipient)) {
            return new RouteOutcome.UnknownRecipient(recipient);
        }
        inbox.store(recipient, message);
        sendToAllBut(sessions.sessionsOf(from.user()), from, envelope);
        return new RouteOutcome.StoredOffline(message.id(), recipient);
    }

    private static int sendToAllBut(Iterable<Session> targets, Session excluded, Envelope envelope) {
        int sent = 0;
        for (Session target : targets) {
            if (!target.equals(excluded)) {
                target.send(envelope);
                sent++;
            }
        }
        return sent;
    }
}
