package dev.cim.common.protocol;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.cim.common.protocol.proto.Envelope;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
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
        out.add(Envelopes.received(parse(frame)));
    }

    private static Envelope parse(ByteBuf frame) {
        try {
            // The frame's bytes in an array: protobuf decodes a direct buffer's view (Netty's nioBuffer)
            // by copying it into an array anyway, after two or three ByteBuffer objects; this is the
            // one copy, and none for a heap frame that has its array to itself.
            return Envelope.parser().parseFrom(ByteBufUtil.getBytes(frame, frame.readerIndex(),
                    frame.readableBytes(), false));
        } catch (InvalidProtocolBufferException e) {
            throw new CorruptedFrameException("frame of " + frame.readableBytes()
                    + " bytes is not a cim Envelope: " + e.getMessage(), e);
        } finally {
            frame.skipBytes(frame.readableBytes());
        }
    }
}
