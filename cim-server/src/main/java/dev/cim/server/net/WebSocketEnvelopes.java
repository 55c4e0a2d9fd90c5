package dev.cim.server.net;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.cim.common.protocol.EnvelopeEncoder;
import dev.cim.common.protocol.EnvelopeFraming;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.WebSocketFraming;
import dev.cim.common.protocol.proto.Envelope;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.MessageToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.util.List;

/**
 * The web port's messages read as Envelopes: one {@link Envelope} per WebSocket message, in the
 * form the connection chose when it opened ({@link Form}): Protocol Buffers in binary messages, or
 * proto3's JSON mapping of the same messages in text ones (what the web page speaks). The same
 * checks as on the chat port follow: the protocol version, a message kind, a first message (the
 * login) no longer than the login limit and none longer than the frame limit.
 *
 * <p>Messages arrive whole: a {@code WebSocketFrameAggregator} before this one joins the fragments
 * of one, up to the frame limit. Envelopes are written in the same form by an
 * {@link EnvelopeEncoder} with the form's {@link Form#framing() framing}, batched per pass of the
 * event loop as on the chat port.
 */
final class WebSocketEnvelopes extends MessageToMessageDecoder<WebSocketFrame> {

    /** How the messages of a connection are written: chosen by the subprotocol the client asked for. */
    enum Form {
        /** {@value #PROTO_SUBPROTOCOL}: binary messages, each a serialized Envelope. */
        PROTO,
        /** {@value #JSON_SUBPROTOCOL}: text messages, each an Envelope in proto3's JSON mapping. */
        JSON;

        static final String PROTO_SUBPROTOCOL = "cim.proto";
        static final String JSON_SUBPROTOCOL = "cim.json";

        /** The form of subprotocol {@code name} (as the handshake agreed it); JSON when none was. */
        static Form of(String name) {
            return PROTO_SUBPROTOCOL.equals(name) ? PROTO : JSON;
        }

        /** How the server writes an Envelope in this form: one unmasked message. */
        EnvelopeFraming framing() {
            return this == PROTO ? WebSocketFraming.binary(false) : WebSocketFraming.text(Form::json, false);
        }

        private static String json(Envelope envelope) {
            try {
                return JSON_OUT.print(envelope);
            } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException("Envelope " + envelope.getKindCase() + " has no JSON form", e);
            }
        }
    }

    private static final JsonFormat.Parser JSON_IN = JsonFormat.parser();
    private static final JsonFormat.Printer JSON_OUT = JsonFormat.printer().omittingInsignificantWhitespace();

    private final int maxFrameLength;
    private final int maxLoginFrameLength;
    private boolean first = true;

    WebSocketEnvelopes(int maxFrameLength, int maxLoginFrameLength) {
        this.maxFrameLength = maxFrameLength;
        this.maxLoginFrameLength = maxLoginFrameLength;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, WebSocketFrame frame, List<Object> out) {
        int limit = first ? maxLoginFrameLength : maxFrameLength;
        ByteBuf content = frame.content();
        if (content.readableBytes() > limit) {
            throw new TooLongFrameException("the " + (first ? "first message" : "message") + " is "
                    + content.readableBytes() + " bytes (expected: " + (first ? "a login of " : "")
                    + "at most " + limit + " bytes)");
        }
        first = false;
        Envelope envelope;
        if (frame instanceof TextWebSocketFrame text) {
            envelope = fromJson(text.text());
        } else if (frame instanceof BinaryWebSocketFrame) {
            envelope = Envelopes.parse(content, "message");
        } else {
            throw new CorruptedFrameException("a " + frame.getClass().getSimpleName()
                    + " (expected: a text or binary message)");
        }
        out.add(Envelopes.received(envelope));
    }

    private static Envelope fromJson(String json) {
        Envelope.Builder builder = Envelope.newBuilder();
        try {
            JSON_IN.merge(json, builder);
        } catch (InvalidProtocolBufferException | RuntimeException e) {
            throw new CorruptedFrameException("text message is not a cim Envelope in JSON (expected: proto3's JSON "
                    + "mapping of cim.proto, as in docs/protocol.md): " + e.getMessage(), e);
        }
        return builder.build();
    }
}
