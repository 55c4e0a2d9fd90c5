package dev.cim.server.net;

import dev.cim.common.protocol.ChatMessage;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.LoginRequest;
import dev.cim.server.account.LoginOutcome;
import dev.cim.server.session.Session;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gate of a new connection: the first frame must be a {@code LoginRequest}; anything else closes
 * the connection. A refused login is answered and closed. An accepted one opens a {@link Session},
 * answers, delivers the user's offline inbox in order, and removes this handler after installing a
 * {@link ChatHandler} for the session, so after login no frame ever passes a login check again.
 *
 * <p>One per connection. Runs on the blocking executor group: password hashing and Redis block.
 */
final class LoginHandler extends SimpleChannelInboundHandler<Envelope> {

    private static final Logger log = LoggerFactory.getLogger(LoginHandler.class);

    private final ChatServices services;

    LoginHandler(ChatServices services) {
        super(Envelope.class);
        this.services = services;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Envelope envelope) {
        if (envelope.getKindCase() != Envelope.KindCase.LOGIN_REQUEST) {
            Connections.closeWithError(ctx.channel(), envelope.getRequestId(), ErrorReply.Code.NOT_LOGGED_IN,
                    envelope.getKindCase() + " before login (expected: LOGIN_REQUEST first)");
            return;
        }
        LoginRequest request = envelope.getLoginRequest();
        String user = request.getUserName();
        LoginOutcome outcome = services.accounts().login(user, request.getPassword());
        if (outcome instanceof LoginOutcome.Refused refused) {
            log.warn("Closing {}: login as '{}' refused: {}", Connections.describe(ctx.channel()), user,
                    refused.reason());
            ctx.writeAndFlush(Envelopes.loginRefused(envelope.getRequestId(), refused.reason()))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        boolean created = ((LoginOutcome.Accepted) outcome).created();
        Session session = services.sessions().open(user, ctx.channel());
        ctx.channel().attr(Connections.USER).set(user);
        // The chat handler goes after the heartbeat handler, on the I/O event loop; it hands what
        // blocks to this handler's executor, which stays pinned to the connection. Frames and
        // channelInactive queued behind this frame pass the removed login handler on to it.
        ctx.pipeline().addBefore(CimServerInitializer.ERRORS, CimServerInitializer.CHAT_HANDLER,
                new ChatHandler(session, services, ctx.executor()));
        ctx.pipeline().remove(this);
        if (!ctx.channel().isActive()) {
            // Closed before this login was handled: its channelInactive passed before the session existed.
            services.sessions().close(session);
            return;
        }
        ctx.write(Envelopes.loginAccepted(envelope.getRequestId(), created, services.presence().nodeId(),
                services.properties().heartbeatInterval()));
        // After the session was opened, so a message sent meanwhile is delivered live, never lost.
        for (ChatMessage kept : services.inbox().drain(user)) {
            ctx.write(Envelopes.chat(0, kept));
        }
        ctx.flush();
        log.info("{} logged in{}", Connections.describe(ctx.channel()), created ? ", account created" : "");
    }

}
