package dev.cim.common.protocol;

import dev.cim.common.protocol.proto.Envelope;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.util.List;

/**
 * Turns one frame's payload into an {@link Envelope}, refusing what this peer cannot handle: bytes
 * that are not an Envelope, another protocol version, or an Envelope without a message kind.
 * Protobuf parsing is lenient (random bytes often parse into something), so the version and kind
 * checks are what catch most garbage.
 */
final class EnvelopeDecoder extends MessageToMessageDecoder<ByteBuf> {

    EnvelopeDecoder() {
        super(ByteBuf.class);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
        try {
            out.add(Envelopes.received(Envelopes.parse(frame, "frame")));
        } finally {
            frame.skipBytes(frame.readableBytes());
        }
    }
}
