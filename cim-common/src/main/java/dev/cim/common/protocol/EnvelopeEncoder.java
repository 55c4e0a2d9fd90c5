package dev.cim.common.protocol;

import dev.cim.common.protocol.proto.Envelope;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;

/**
 * Serializes an {@link Envelope} into a frame payload; the {@code LengthFieldPrepender} after it
 * adds the length. A payload too long for the peer's decoder fails the write instead of being
 * sent, since the peer would only drop the connection.
 */
final class EnvelopeEncoder extends MessageToMessageEncoder<Envelope> {

    private final int maxPayloadLength;

    EnvelopeEncoder(int maxPayloadLength) {
        super(Envelope.class);
        this.maxPayloadLength = maxPayloadLength;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Envelope envelope, List<Object> out) {
        int size = envelope.getSerializedSize();
        if (size > maxPayloadLength) {
            throw new TooLongFrameException("outbound " + envelope.getKindCase() + " of " + size
                    + " bytes exceeds the maximum payload of " + maxPayloadLength + " bytes");
        }
        out.add(Unpooled.wrappedBuffer(envelope.toByteArray()));
    }
}
