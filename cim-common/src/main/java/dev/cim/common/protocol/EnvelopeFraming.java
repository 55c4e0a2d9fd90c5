package dev.cim.common.protocol;

import dev.cim.common.protocol.proto.Envelope;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.TooLongFrameException;
import java.io.IOException;

/**
 * How one {@link Envelope} is laid out as one frame in a connection's bytes, for the
 * {@link EnvelopeEncoder}, which puts the frames of one pass of the event loop back to back in one
 * buffer whatever their layout: the chat port's ({@link #lengthPrefixed()}), or a WebSocket's
 * ({@link WebSocketFraming}).
 */
@FunctionalInterface
public interface EnvelopeFraming {

    /** The chat port's frame: the payload's length in 4 bytes, big-endian, then the serialized Envelope. */
    static EnvelopeFraming lengthPrefixed() {
        return LengthPrefixed.INSTANCE;
    }

    /**
     * Appends {@code envelope} as one whole frame at the writer index of {@code out}, growing it as
     * needed.
     *
     * @throws TooLongFrameException if the frame's payload would be longer than
     *         {@code maxPayloadLength}; {@code out} may then hold part of the frame, which the
     *         caller cuts off
     * @throws IOException if the Envelope cannot be serialized
     */
    void append(Envelope envelope, ByteBuf out, int maxPayloadLength) throws IOException;
}
