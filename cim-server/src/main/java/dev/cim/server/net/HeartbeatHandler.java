package dev.cim.server.net;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import java.time.Clock;
import java.time.Duration;

/**
 * Keeps connections honest about being alive: answers each {@code Ping} with a {@code Pong}, and
 * closes a connection when the {@code IdleStateHandler} in front reports it read nothing for the
 * idle timeout (its session, if any, closes with it, removing its presence).
 *
 * <p>Sits after the {@link LoginHandler}, so a ping before login is refused like any other frame;
 * idle events pass the login handler, so a connection that never logs in is closed too. Shared by
 * all connections; runs on the I/O threads since it never blocks.
 */
@Sharable
final class HeartbeatHandler extends ChannelInboundHandlerAdapter {

    private final Clock clock;
    private final Duration idleTimeout;

    HeartbeatHandler(Clock clock, Duration idleTimeout) {
        this.clock = clock;
        this.idleTimeout = idleTimeout;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Envelope envelope && envelope.getKindCase() == Envelope.KindCase.PING) {
            ctx.writeAndFlush(Envelopes.pong(envelope, clock.millis()));
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            Connections.closeWithError(ctx.channel(), 0, ErrorReply.Code.IDLE_TIMEOUT,
                    "sent nothing for " + idleTimeout.toMillis() + " ms (expected: a ping at least every "
                            + idleTimeout.dividedBy(3).toMillis() + " ms)");
        } else {
            super.userEventTriggered(ctx, evt);
        }
    }
}
