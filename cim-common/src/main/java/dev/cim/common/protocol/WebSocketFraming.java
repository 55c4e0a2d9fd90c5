package dev.cim.common.protocol;

import dev.cim.common.protocol.proto.Envelope;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * One Envelope as one WebSocket message of one frame (RFC 6455, section 5.2): a binary message
 * holding the serialized Envelope, or a text message holding it in a text form such as proto3's
 * JSON mapping. What Netty's {@code WebSocket08FrameEncoder} writes for a {@code WebSocketFrame},
 * this writes into the {@link EnvelopeEncoder}'s one buffer per pass, so that a WebSocket
 * connection is written once per pass like a chat-port one; the handshake, control frames (ping,
 * pong, close) and everything read stay Netty's.
 *
 * <p>Why not Netty's encoder for the messages too: it makes each message a buffer of its own, header
 * and payload, and each write flushed alone; in the generator's closed loop
 * ({@code cim-loadgen --transport=both}) that put WebSocket at under half of TCP's rate, most of it
 * in the socket writes and per-buffer work the chat port's encoder had already removed.
 *
 * <h3>The frame</h3>
 * <pre>
 * FIN + opcode (0x82 binary, 0x81 text) | MASK bit + length (7 bits; 126 then 16 bits; 127 then 64 bits)
 * | masking key (4 bytes, a client's frames only) | payload (XORed with the key when masked)
 * </pre>
 * A client masks every frame and a server none (section 5.1). The key is a fresh
 * {@link ThreadLocalRandom} int per frame, as Netty's encoder takes it: masking protects proxies
 * from a page's script choosing the bytes on the wire, and this library runs no one else's script.
 */
public final class WebSocketFraming implements EnvelopeFraming {

    private static final int FIN = 0x80;
    private static final int OPCODE_TEXT = 0x1;
    private static final int OPCODE_BINARY = 0x2;
    private static final int MASK = 0x80;

    private final boolean masked;
    /** The text form of an Envelope, or null for binary messages. */
    private final Function<Envelope, String> text;

    private WebSocketFraming(boolean masked, Function<Envelope, String> text) {
        this.masked = masked;
        this.text = text;
    }

    /**
     * Binary messages, each one serialized Envelope.
     *
     * @param masked true for a client's frames, false for a server's
     */
    public static WebSocketFraming binary(boolean masked) {
        return new WebSocketFraming(masked, null);
    }

    /**
     * Text messages, each one Envelope in the form {@code toText} gives it (written as UTF-8).
     *
     * @param masked true for a client's frames, false for a server's
     */
    public static WebSocketFraming text(Function<Envelope, String> toText, boolean masked) {
        return new WebSocketFraming(masked, Objects.requireNonNull(toText, "toText"));
    }

    @Override
    public void append(Envelope envelope, ByteBuf out, int maxPayloadLength) throws IOException {
        int payloadStart;
        int length;
        if (text == null) {
            length = Payloads.checkedSize(envelope, maxPayloadLength);
            int mask = header(out, OPCODE_BINARY, length);
            payloadStart = out.writerIndex();
            Payloads.write(envelope, length, out);
            mask(out, payloadStart, length, mask);
        } else {
            String form = text.apply(envelope);
            length = ByteBufUtil.utf8Bytes(form);
            Payloads.checkLength(envelope, length, maxPayloadLength);
            int mask = header(out, OPCODE_TEXT, length);
            payloadStart = out.writerIndex();
            ByteBufUtil.reserveAndWriteUtf8(out, form, length);
            mask(out, payloadStart, length, mask);
        }
    }

    /** Writes the frame's header and makes room for its payload; returns the masking key (0 when not masked). */
    private int header(ByteBuf out, int opcode, int length) {
        int extended = length < 126 ? 0 : length <= 0xFFFF ? 2 : 8;
        out.ensureWritable(2 + extended + (masked ? 4 : 0) + length);
        out.writeByte(FIN | opcode);
        int maskBit = masked ? MASK : 0;
        if (extended == 0) {
            out.writeByte(maskBit | length);
        } else if (extended == 2) {
            out.writeByte(maskBit | 126);
            out.writeShort(length);
        } else {
            out.writeByte(maskBit | 127);
            out.writeLong(length);
        }
        if (!masked) {
            return 0;
        }
        int key = ThreadLocalRandom.current().nextInt();
        out.writeInt(key);
        return key;
    }

    /** XORs the {@code length} bytes from {@code start} with {@code key}, repeated (section 5.3). */
    private void mask(ByteBuf out, int start, int length, int key) {
        if (!masked) {
            return;
        }
        int end = start + length;
        int i = start;
        for (; i + 4 <= end; i += 4) {
            out.setInt(i, out.getInt(i) ^ key);
        }
        for (int shift = 24; i < end; i++, shift -= 8) {
            out.setByte(i, out.getByte(i) ^ (key >>> shift));
        }
    }
}
