package dev.cim.common.protocol;

import com.google.protobuf.CodedOutputStream;
import dev.cim.common.protocol.proto.Envelope;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import io.netty.handler.codec.TooLongFrameException;
import java.io.IOException;

/**
 * Writes an {@link Envelope} as one whole frame: the 4-byte length, then the serialized payload,
 * into one pooled buffer of exactly that size. Serializing straight into the (usually direct)
 * buffer costs one pass over the message and no copy; a separate length prepender would cost a
 * second buffer, a promise combiner and a second I/O vector entry per frame. The size protobuf
 * computes for the check is memoized, so it is not computed twice. A payload too long for the
 * peer's decoder fails the write instead of being sent, since the peer would only drop the
 * connection.
 */
final class EnvelopeEncoder extends MessageToByteEncoder<Envelope> {

    private final int maxPayloadLength;

    EnvelopeEncoder(int maxPayloadLength) {
        super(Envelope.class);
        this.maxPayloadLength = maxPayloadLength;
    }

    @Override
    protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, Envelope envelope, boolean preferDirect) {
        int size = envelope.getSerializedSize();
        if (size > maxPayloadLength) {
            // Before allocating: the check exists so that an oversized frame costs nothing.
            throw new TooLongFrameException("outbound " + envelope.getKindCase() + " of " + size
                    + " bytes exceeds the maximum payload of " + maxPayloadLength + " bytes");
        }
        int frame = CimProtocolCodec.LENGTH_FIELD_LENGTH + size;
        return preferDirect ? ctx.alloc().ioBuffer(frame, frame) : ctx.alloc().heapBuffer(frame, frame);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Envelope envelope, ByteBuf out) throws IOException {
        int size = envelope.getSerializedSize();
        out.writeInt(size);
        int start = out.writerIndex();
        out.ensureWritable(size);
        // A view of the buffer's next `size` bytes; protobuf writes through it without a copy.
        CodedOutputStream stream = CodedOutputStream.newInstance(out.nioBuffer(start, size));
        envelope.writeTo(stream);
        stream.checkNoSpaceLeft();
        out.writerIndex(start + size);
    }
}
