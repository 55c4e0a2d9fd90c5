package dev.cim.server.net;

import dev.cim.common.protocol.CimProtocolCodec;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.ErrorReply;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first handler of a connection to a TLS port: reads the first five bytes, the size of a TLS
 * record header. A TLS record puts the connection's {@link SslHandler} in its place (which then
 * reads those bytes and the rest); anything else is a client speaking plaintext to a port that
 * speaks TLS only.
 *
 * <p>That client has just sent its login, password included, so it is told in the one language it
 * reads: one plaintext error frame, {@code TLS_REQUIRED}, and the connection is closed. Without the
 * frame it would see only a closed connection and try again forever, as if the server were down;
 * with it, the client stops and says why. Nothing it sent is read.
 */
final class TlsOnlyGate extends ByteToMessageDecoder {

    static final String NAME = "tls";

    private static final Logger log = LoggerFactory.getLogger(TlsOnlyGate.class);
    /** Bytes of a TLS record header: content type, version, length. */
    private static final int RECORD_HEADER = 5;
    private static final String REFUSAL = "this server accepts TLS connections only, and this one began in "
            + "plaintext (expected: a client with TLS turned on)";

    private final ServerTls tls;
    private final Duration handshakeTimeout;
    private boolean refused;

    TlsOnlyGate(ServerTls tls, Duration handshakeTimeout) {
        this.tls = tls;
        this.handshakeTimeout = handshakeTimeout;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (refused) {
            in.skipBytes(in.readableBytes()); // what was in flight before reading stopped
            return;
        }
        if (in.readableBytes() < RECORD_HEADER) {
            return;
        }
        if (SslHandler.isEncrypted(in, false)) {
            // The bytes read so far go on to the new handler when this one is removed.
            ctx.pipeline().replace(this, NAME, tls.newHandler(ctx.alloc(), handshakeTimeout));
            return;
        }
        in.skipBytes(in.readableBytes());
        refused = true;
        log.info("Closing {}: plaintext on the TLS-only chat port", ctx.channel().remoteAddress());
        byte[] payload = Envelopes.error(0, ErrorReply.Code.TLS_REQUIRED, REFUSAL, true).toByteArray();
        ByteBuf frame = Unpooled.buffer(CimProtocolCodec.LENGTH_FIELD_LENGTH + payload.length)
                .writeInt(payload.length).writeBytes(payload);
        // From this handler, the first: the frame goes to the socket as it is, not through any TLS.
        ctx.writeAndFlush(frame).addListener(ChannelFutureListener.CLOSE);
        ctx.channel().config().setAutoRead(false);
    }
}
