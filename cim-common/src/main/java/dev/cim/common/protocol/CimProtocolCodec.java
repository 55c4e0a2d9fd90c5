package dev.cim.common.protocol;

import dev.cim.common.protocol.proto.Envelope;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;

/**
 * Installs the cim wire codec in a Netty pipeline: inbound bytes become {@link Envelope}s and
 * outbound {@link Envelope}s become bytes. Client and server install the same codec.
 *
 * <h3>Frame layout</h3>
 * Each frame is a 4-byte big-endian unsigned length, then exactly that many bytes of one serialized
 * protobuf {@link Envelope} (schema: {@code src/main/proto/cim.proto}). The length counts the
 * payload only; the decoder strips it:
 * <pre>
 * BEFORE DECODE (4 + 14 bytes)                AFTER DECODE (one Envelope)
 * +-------------+------------------------+      +-----------------------------------+
 * | Length      | Payload                |      | Envelope { version: 1,            |
 * | 0x0000000E  | protobuf Envelope (14) |----->|   ping { client_time_millis: .. } |
 * +-------------+------------------------+      | }                                 |
 *  bytes 0..3    bytes 4..17                    +-----------------------------------+
 * </pre>
 *
 * <h3>Limits and failures</h3>
 * A frame, length field included, may be at most {@code maxFrameLength} bytes (default
 * {@link #DEFAULT_MAX_FRAME_LENGTH}). Inbound failures reach {@code exceptionCaught} as typed
 * exceptions, and the owner of the pipeline decides what to do (the server answers with an error and
 * closes the connection):
 * <table>
 *   <caption>Inbound failures</caption>
 *   <tr><th>Input</th><th>Exception</th></tr>
 *   <tr><td>a length over the maximum</td><td>{@link TooLongFrameException}, raised as soon as the
 *       length is read (fail fast); the frame's bytes are then skipped</td></tr>
 *   <tr><td>a payload that is not an Envelope, or carries no message kind</td>
 *       <td>{@link CorruptedFrameException}</td></tr>
 *   <tr><td>an Envelope of another protocol version</td>
 *       <td>{@link UnsupportedVersionException} (a {@link CorruptedFrameException})</td></tr>
 * </table>
 * An outbound Envelope too long for the maximum fails its write promise with an
 * {@code EncoderException} caused by a {@link TooLongFrameException} rather than being sent to a
 * peer that would refuse it.
 *
 * <h3>Usage</h3>
 * <pre>{@code
 * protected void initChannel(SocketChannel ch) {
 *     new CimProtocolCodec(maxFrameLength).install(ch.pipeline());
 *     ch.pipeline().addLast(new MyEnvelopeHandler());   // a SimpleChannelInboundHandler<Envelope>
 * }
 * }</pre>
 * Build Envelopes with {@link Envelopes}, which stamps the {@link Envelopes#PROTOCOL_VERSION}.
 */
public final class CimProtocolCodec {

    /** The default maximum frame length: 64 KiB, length field included. */
    public static final int DEFAULT_MAX_FRAME_LENGTH = 64 * 1024;
    /** The smallest maximum allowed: room for a login with long names. */
    public static final int MIN_MAX_FRAME_LENGTH = 256;
    /** The largest maximum allowed: 16 MiB. A chat protocol has no business with bigger frames. */
    public static final int MAX_MAX_FRAME_LENGTH = 16 * 1024 * 1024;
    /** Bytes in the length field. */
    public static final int LENGTH_FIELD_LENGTH = 4;

    /** Pipeline names of the installed handlers, in order. */
    public static final String FRAME_DECODER = "cim-frame-decoder";
    public static final String ENVELOPE_DECODER = "cim-envelope-decoder";
    public static final String ENVELOPE_ENCODER = "cim-envelope-encoder";

    private final int maxFrameLength;

    /** A codec with the {@link #DEFAULT_MAX_FRAME_LENGTH}. */
    public CimProtocolCodec() {
        this(DEFAULT_MAX_FRAME_LENGTH);
    }

    /**
     * @param maxFrameLength the longest frame accepted or sent, length field included
     * @throws IllegalArgumentException if {@code maxFrameLength} is outside
     *         [{@link #MIN_MAX_FRAME_LENGTH}, {@link #MAX_MAX_FRAME_LENGTH}]
     */
    public CimProtocolCodec(int maxFrameLength) {
        if (maxFrameLength < MIN_MAX_FRAME_LENGTH || maxFrameLength > MAX_MAX_FRAME_LENGTH) {
            throw new IllegalArgumentException("maxFrameLength: " + maxFrameLength + " (expected: "
                    + MIN_MAX_FRAME_LENGTH + " <= maxFrameLength <= " + MAX_MAX_FRAME_LENGTH + ")");
        }
        this.maxFrameLength = maxFrameLength;
    }

    /** The longest frame accepted or sent, length field included. */
    public int maxFrameLength() {
        return maxFrameLength;
    }

    /**
     * Adds the three codec handlers at the end of {@code pipeline}, named {@link #FRAME_DECODER},
     * {@link #ENVELOPE_DECODER} and {@link #ENVELOPE_ENCODER}. Handlers added
     * after them receive and send {@link Envelope}s. Call once per channel: the frame decoder keeps
     * per-connection state.
     *
     * @return {@code pipeline}
     */
    public ChannelPipeline install(ChannelPipeline pipeline) {
        int maxPayload = maxFrameLength - LENGTH_FIELD_LENGTH;
        return pipeline
                // Splits the byte stream on the length field; fail fast so an absurd length is
                // reported at once instead of after its bytes were swallowed.
                .addLast(FRAME_DECODER, new LengthFieldBasedFrameDecoder(
                        maxFrameLength, 0, LENGTH_FIELD_LENGTH, 0, LENGTH_FIELD_LENGTH, true))
                // Parses one Envelope per frame and checks version and kind.
                .addLast(ENVELOPE_DECODER, new EnvelopeDecoder())
                // Writes each outbound Envelope as one whole frame, length field and payload.
                .addLast(ENVELOPE_ENCODER, new EnvelopeEncoder(maxPayload, EnvelopeFraming.lengthPrefixed()));
    }
}
