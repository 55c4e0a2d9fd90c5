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
 */
final class LoginFrameLimit extends ByteToMessageDecoder {

    static final String NAME = "first-frame";

    private final int maxLength;

    LoginFrameLimit(int maxLength) {
        this.maxLength = maxLength;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < CimProtocolCodec.LENGTH_FIELD_LENGTH) {
            return;
        }
        long length = in.getUnsignedInt(in.readerIndex()) + CimProtocolCodec.LENGTH_FIELD_LENGTH;
        if (length > maxLength) {
            in.skipBytes(in.readableBytes());
            NettyConnection.closeWithError(ctx.channel(), ErrorReply.Code.FRAME_TOO_LONG, "the first frame is "
                    + length + " bytes (expected: a login of at most " + maxLength + " bytes)");
            return;
        }
        ctx.pipeline().remove(this);
    }
}
