package dev.cim.server.net;

import dev.cim.common.protocol.ChatMessage;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.ServerNotice;
import dev.cim.server.routing.RouteOutcome;
import dev.cim.server.session.Session;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.util.concurrent.EventExecutor;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

/**
 * Serves a logged-in session: routes its chat messages and answers each with a receipt or an error,
 * answers online-users requests, and closes the session when the connection goes. A request it
 * cannot serve is refused with an error and the connection stays open; only frame-level faults
 * (handled by the {@link ProtocolErrorHandler}) close it.
 *
 * <p>One per session, installed by the {@link LoginHandler}. It runs on the connection's I/O event
 * loop, so that the common case, a message whose recipients are all on this node, is routed with no
 * thread hop and no Redis call. Work that calls Redis (an offline or unknown recipient, other nodes,
 * the online-users list, closing the session) goes to {@code storage}, the blocking executor pinned
 * to this connection. While any such work is queued, later messages queue behind it, so one
 * connection's requests are still served in the order they came.
 */
final class ChatHandler extends SimpleChannelInboundHandler<Envelope> {

    private static final Logger log = LoggerFactory.getLogger(ChatHandler.class);

    private final Session session;
    private final ChatServices services;
    private final EventExecutor storage;
    /** Tasks handed to {@link #storage} and not finished; while above zero, nothing is routed inline. */
    private final AtomicInteger queued = new AtomicInteger();

    /**
     * @param storage a single-threaded executor for the work that blocks, the same one for the
     *        whole life of the connection
     */
    ChatHandler(Session session, ChatServices services, EventExecutor storage) {
        super(Envelope.class);
        this.session = session;
        this.services = services;
        this.storage = storage;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Envelope envelope) {
        long requestId = envelope.getRequestId();
        switch (envelope.getKindCase()) {
            case CHAT -> chat(ctx, envelope);
            case ONLINE_USERS_REQUEST -> offload(() -> ctx.writeAndFlush(
                    Envelopes.onlineUsersReply(requestId, services.presence().onlineUsers())));
            case LOGIN_REQUEST -> refuse(ctx, requestId, ErrorReply.Code.BAD_REQUEST,
                    "already logged in as " + session.user());
            default -> refuse(ctx, requestId, ErrorReply.Code.BAD_REQUEST,
                    "the server does not accept " + envelope.getKindCase() + " from clients");
        }
    }

    private void chat(ChannelHandlerContext ctx, Envelope envelope) {
        long requestId = envelope.getRequestId();
        ChatMessage sent;
        try {
            sent = ChatMessage.fromProto(envelope.getChat());
        } catch (IllegalArgumentException e) {
            refuse(ctx, requestId, ErrorReply.Code.BAD_REQUEST, "bad delay: " + e.getMessage());
            return;
        }
        Optional<String> problem = services.stamper().problem(sent, session.user());
        if (problem.isPresent()) {
            refuse(ctx, requestId, ErrorReply.Code.BAD_REQUEST, problem.get());
            return;
        }
        ChatMessage message = services.stamper().stamp(sent, session.user());
        if (queued.get() == 0) {
            Optional<RouteOutcome> local = services.router().routeLocally(session, message);
            if (local.isPresent()) {
                ctx.writeAndFlush(receipt(requestId, message, local.get()));
                return;
            }
        }
        offload(() -> route(ctx, requestId, message));
    }

    private void route(ChannelHandlerContext ctx, long requestId, ChatMessage message) {
        RouteOutcome outcome;
        try {
            outcome = services.router().route(session, message);
        } catch (DataAccessException e) {
            log.error("Could not route message {} from {}: {}", message.id(), session, e.toString());
            refuse(ctx, requestId, ErrorReply.Code.INTERNAL, "message not sent: the server's storage is unavailable");
            return;
        }
        ctx.writeAndFlush(receipt(requestId, message, outcome));
    }

    private static Envelope receipt(long requestId, ChatMessage message, RouteOutcome outcome) {
        if (outcome instanceof RouteOutcome.Delivered delivered) {
            String to = message.isBroadcast() ? "everyone online" : message.recipient();
            String where = delivered.sessions() + " session" + (delivered.sessions() == 1 ? "" : "s") + " here"
                    + (delivered.remoteNodes() == 0 ? ""
                            : ", relayed to " + delivered.remoteNodes() + " other node"
                                    + (delivered.remoteNodes() == 1 ? "" : "s"));
            return Envelopes.notice(requestId, ServerNotice.Kind.DELIVERED, delivered.messageId(),
                    "delivered to " + to + " (" + where + ")", delivered.sessions());
        }
        if (outcome instanceof RouteOutcome.StoredOffline stored) {
            return Envelopes.notice(requestId, ServerNotice.Kind.STORED_OFFLINE, stored.messageId(),
                    stored.recipient() + " is offline: stored in " + stored.recipient()
                            + "'s offline inbox, delivered at the next login", 0);
        }
        RouteOutcome.UnknownRecipient unknown = (RouteOutcome.UnknownRecipient) outcome;
        return Envelopes.error(requestId, ErrorReply.Code.UNKNOWN_USER,
                "no user named " + unknown.recipient() + ": message not sent", false);
    }

    private void refuse(ChannelHandlerContext ctx, long requestId, ErrorReply.Code code, String reason) {
        log.info("Refused a request of {}: {}", session, reason);
        ctx.writeAndFlush(Envelopes.error(requestId, code, reason, false));
    }

    /** Runs {@code work} on {@link #storage}, after everything this connection queued before it. */
    private void offload(Runnable work) {
        queued.incrementAndGet();
        storage.execute(() -> {
            try {
                work.run();
            } finally {
                queued.decrementAndGet();
            }
        });
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        offload(() -> services.sessions().close(session)); // presence lives in Redis
        super.channelInactive(ctx);
    }
}
