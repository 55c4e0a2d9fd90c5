package dev.cim.server.net;

import dev.cim.common.protocol.UnsupportedVersionException;
import dev.cim.common.protocol.proto.ErrorReply;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler: every exception of a connection ends here, and the connection is closed with
 * the reason logged and, where the peer can still read it, sent as a closing error. Bad frames
 * (garbage, oversized, another version) hit only their own connection; everyone else chats on.
 */
@Sharable
final class ProtocolErrorHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ProtocolErrorHandler.class);

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!ctx.channel().isOpen()) {
            return; // Already closed for an earlier fault; later ones add nothing.
        }
        if (cause instanceof SSLException || cause.getCause() instanceof SSLException) {
            // A failed TLS handshake (an untrusting client, a timeout, not TLS after all): no frame
            // can reach the peer any more.
            log.info("TLS with {} failed: {}", ctx.channel().remoteAddress(), (cause instanceof SSLException
                    ? cause : cause.getCause()).getMessage());
            ctx.close();
        } else if (cause instanceof TooLongFrameException) {
            NettyConnection.closeWithError(ctx.channel(), ErrorReply.Code.FRAME_TOO_LONG, cause.getMessage());
        } else if (cause instanceof UnsupportedVersionException) {
            NettyConnection.closeWithError(ctx.channel(), ErrorReply.Code.UNSUPPORTED_VERSION, cause.getMessage());
        } else if (cause instanceof DecoderException) {
            NettyConnection.closeWithError(ctx.channel(), ErrorReply.Code.BAD_FRAME,
                    "unreadable frame: " + cause.getMessage());
        } else if (cause instanceof IOException) {
            // The peer vanished (reset, broken pipe): nothing to tell it.
            log.info("Connection {} lost: {}", ctx.channel().remoteAddress(), cause.getMessage());
            ctx.close();
        } else {
            log.error("Closing {} after an unexpected failure", ctx.channel().remoteAddress(), cause);
            NettyConnection.closeWithError(ctx.channel(), ErrorReply.Code.INTERNAL,
                    "internal server error; please reconnect");
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        // Everything is consumed before this point; anything else is a wiring bug worth seeing.
        log.warn("Unhandled inbound message on {}: {}", ctx.channel().remoteAddress(), msg);
        ReferenceCountUtil.release(msg);
    }
}
