package dev.cim.server.net;

import dev.cim.common.protocol.CimProtocolCodec;
import dev.cim.common.protocol.proto.ErrorReply;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Reads the length of a connection's first frame, which must be its login, and closes the
 * connection if it is longer than a login needs; then steps aside, handing what it read to the
 * frame decoder. So a connection that has not logged in can make the server buffer at most this
 * much, not the full frame size a logged-in client may send.
 *
 * <p>A refused connection is read no further, and what arrives before reading stops (a socket's
 * read loop hands a large frame over in several reads within one pass of the event loop, and the
 * closing error leaves only at the end of the pass) is dropped here: the rest of the oversized
 * frame is neither taken for frames of its own nor refused again.
 */
final class LoginFrameLimit extends ByteToMessageDecoder {

    static final String NAME = "first-frame";

    private final int maxLength;
    private boolean refused;

    LoginFrameLimit(int maxLength) {
        this.maxLength = maxLength;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (refused) {
            in.skipBytes(in.readableBytes()); // the rest of the refused frame, read in the same pass
            return;
        }
        if (in.readableBytes() < CimProtocolCodec.LENGTH_FIELD_LENGTH) {
            return;
        }
        long length = in.getUnsignedInt(in.readerIndex()) + CimProtocolCodec.LENGTH_FIELD_LENGTH;
        if (length > maxLength) {
            in.skipBytes(in.readableBytes());
            refused = true;
            ctx.channel().config().setAutoRead(false);
            NettyConnection.closeWithError(ctx.channel(), ErrorReply.Code.FRAME_TOO_LONG, "the first frame is "
                    + length + " bytes (expected: a login of at most " + maxLength + " bytes)");
            return;
        }
        ctx.pipeline().remove(this);
    }
}
