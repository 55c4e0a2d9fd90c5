package dev.cim.common.protocol;

import com.google.protobuf.CodedOutputStream;
import dev.cim.common.protocol.proto.Envelope;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.TooLongFrameException;
import java.io.IOException;

/** Serializes an Envelope straight into a buffer, for every {@link EnvelopeFraming}. */
final class Payloads {

    private Payloads() {
    }

    /**
     * The serialized size of {@code envelope} (memoized by protobuf).
     *
     * @throws TooLongFrameException if it is over {@code maxPayloadLength}
     */
    static int checkedSize(Envelope envelope, int maxPayloadLength) {
        int size = envelope.getSerializedSize();
        checkLength(envelope, size, maxPayloadLength);
        return size;
    }

    /** @throws TooLongFrameException if {@code length}, the payload of {@code envelope}, is over {@code maxPayloadLength} */
    static void checkLength(Envelope envelope, int length, int maxPayloadLength) {
        if (length > maxPayloadLength) {
            throw new TooLongFrameException("outbound " + envelope.getKindCase() + " of " + length
                    + " bytes exceeds the maximum payload of " + maxPayloadLength + " bytes");
        }
    }

    /**
     * Writes the {@code size} bytes of {@code envelope} at the writer index of {@code out}, which has
     * room for them. On a heap buffer protobuf writes into the plain array; into a direct one it goes
     * through the {@code ByteBuffer} API, a call per byte or field, which the encoder's heap buffers
     * avoid.
     */
    static void write(Envelope envelope, int size, ByteBuf out) throws IOException {
        int at = out.writerIndex();
        CodedOutputStream stream = out.hasArray()
                ? CodedOutputStream.newInstance(out.array(), out.arrayOffset() + at, size)
                : CodedOutputStream.newInstance(out.nioBuffer(at, size));
        envelope.writeTo(stream);
        stream.checkNoSpaceLeft();
        out.writerIndex(at + size);
    }
}
