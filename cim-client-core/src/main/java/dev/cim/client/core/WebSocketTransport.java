package dev.cim.client.core;

import dev.cim.common.protocol.EnvelopeEncoder;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.WebSocketFraming;
import dev.cim.common.protocol.proto.Envelope;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.MessageToMessageDecoder;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import java.net.URI;
import java.util.List;

/**
 * The client's side of the web port: an HTTP upgrade to a WebSocket at {@code /ws} with
 * subprotocol {@code cim.proto}, then one binary message per {@link Envelope}. Once the handshake is
 * done ({@link #isOpened}), the connection is used like one to the chat port.
 */
final class WebSocketTransport {

    static final String PATH = "/ws";
    static final String SUBPROTOCOL = "cim.proto";

    private WebSocketTransport() {
    }

    /** Adds the HTTP and WebSocket handlers and the Envelope codec for a connection to {@code address}. */
    static void install(ChannelPipeline pipeline, ServerAddress address, boolean tls, int maxFrameLength) {
        URI uri = URI.create((tls ? "wss://" : "ws://") + address + PATH);
        pipeline.addLast(new HttpClientCodec());
        pipeline.addLast(new HttpObjectAggregator(8 * 1024));
        pipeline.addLast(new WebSocketClientProtocolHandler(WebSocketClientProtocolConfig.newBuilder()
                .webSocketUri(uri)
                .subprotocol(SUBPROTOCOL)
                .version(WebSocketVersion.V13)
                .allowExtensions(false)
                .maxFramePayloadLength(maxFrameLength)
                .build()));
        pipeline.addLast(new WebSocketFrameAggregator(maxFrameLength));
        pipeline.addLast(new Decoder());
        // A client masks its frames; one buffer per pass, as on the chat port.
        pipeline.addLast(new EnvelopeEncoder(maxFrameLength, WebSocketFraming.binary(true)));
    }

    /** True when {@code event} says the WebSocket is open: the login may be written. */
    static boolean isOpened(Object event) {
        return event == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_COMPLETE;
    }

    /** True when {@code event} says the handshake took too long. */
    static boolean isTimedOut(Object event) {
        return event == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_TIMEOUT;
    }

    /** Binary messages to Envelopes, checked as the chat port's frames are. */
    private static final class Decoder extends MessageToMessageDecoder<WebSocketFrame> {

        @Override
        protected void decode(ChannelHandlerContext ctx, WebSocketFrame frame, List<Object> out) {
            if (!(frame instanceof BinaryWebSocketFrame)) {
                throw new CorruptedFrameException("a " + frame.getClass().getSimpleName()
                        + " from the server (expected: binary messages, subprotocol " + SUBPROTOCOL + ")");
            }
            out.add(Envelopes.received(Envelopes.parse(frame.content(), "message")));
        }
    }
}
