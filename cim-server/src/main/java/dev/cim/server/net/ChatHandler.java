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
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

/**
 * Serves a logged-in session: routes its chat messages and answers each with a receipt or an error,
 * answers online-users requests, and closes the session when the connection goes. A request it
 * cannot serve is refused with an error and the connection stays open; only frame-level faults
 * (handled by the {@link ProtocolErrorHandler}) close it.
 *
 * <p>One per session, installed by the {@link LoginHandler}. Runs on the blocking executor group:
 * routing to an offline user and listing online users call Redis.
 */
final class ChatHandler extends SimpleChannelInboundHandler<Envelope> {

    private static final Logger log = LoggerFactory.getLogger(ChatHandler.class);

    private final Session session;
    private final ChatServices services;

    ChatHandler(Session session, ChatServices services) {
        super(Envelope.class);
        this.session = session;
        this.services = services;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Envelope envelope) {
        long requestId = envelope.getRequestId();
        switch (envelope.getKindCase()) {
            case CHAT -> chat(ctx, envelope);
            case ONLINE_USERS_REQUEST -> ctx.writeAndFlush(
                    Envelopes.onlineUsersReply(requestId, services.presence().onlineUsers()));
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

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        services.sessions().close(session);
        super.channelInactive(ctx);
    }
}
