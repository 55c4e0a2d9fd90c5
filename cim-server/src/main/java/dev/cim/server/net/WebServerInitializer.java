package dev.cim.server.net;

import dev.cim.common.protocol.EnvelopeEncoder;
import dev.cim.server.chat.ChatService;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import java.util.Set;

/**
 * Builds the pipeline of each connection to the web port:
 * <pre>
 *  [address]   AddressGate: the same counts as the chat port's (a browser is no way around them)
 *  [tls]       TlsOnlyGate, on a TLS port: HTTPS and WSS only
 *  [http]      HttpServerCodec, and requests whole up to {@value #MAX_REQUEST} bytes
 *  [web]       WebRequests: the page and its files; the socket path only from an allowed origin
 *  [upgrade]   WebSocketServerProtocolHandler: the handshake on {@value WebRequests#SOCKET_PATH},
 *              subprotocol cim.json or cim.proto; then messages whole up to the frame limit
 *  [codec]     WebSocketEnvelopes, once the handshake is done: messages to Envelopes
 *  [encoder]   EnvelopeEncoder: Envelopes to messages of the same form, one buffer per pass
 *  [deadline]  ReadDeadline, [login] LoginGate, [session] SessionHandler, [errors]: as on the chat port
 * </pre>
 * After the handshake a WebSocket connection is a connection like any other: the same login,
 * session, limits and errors, through the same chat core.
 */
final class WebServerInitializer extends ChannelInitializer<Channel> {

    /** The longest HTTP request: a page load or an upgrade, no body. */
    static final int MAX_REQUEST = 8 * 1024;

    private final ChatService chat;
    private final ChannelGroup channels;
    private final CimServer.Settings settings;
    private final AddressGate.Counts addresses;
    private final NodeCapacity capacity;
    private final Set<String> allowedOrigins;
    private final ProtocolErrorHandler errors = new ProtocolErrorHandler();

    /**
     * @param addresses the chat port's counts per address, shared
     * @param capacity  the node's logged-in connections, shared with the chat port
     */
    WebServerInitializer(ChatService chat, ChannelGroup channels, CimServer.Settings settings,
            AddressGate.Counts addresses, NodeCapacity capacity) {
        this.chat = chat;
        this.channels = channels;
        this.settings = settings;
        this.addresses = addresses;
        this.capacity = capacity;
        this.allowedOrigins = Set.copyOf(settings.web().allowedOrigins());
    }

    @Override
    protected void initChannel(Channel ch) {
        channels.add(ch);
        ChannelPipeline pipeline = ch.pipeline();
        pipeline.addLast(AddressGate.NAME, new AddressGate(addresses));
        if (settings.tls() != null) {
            pipeline.addLast(TlsOnlyGate.NAME, new TlsOnlyGate(settings.tls(), settings.loginTimeout()));
        }
        pipeline.addLast("http", new HttpServerCodec(4096, MAX_REQUEST, MAX_REQUEST));
        pipeline.addLast("request", new HttpObjectAggregator(MAX_REQUEST));
        pipeline.addLast(WebRequests.NAME, new WebRequests(allowedOrigins));
        pipeline.addLast("upgrade", new WebSocketServerProtocolHandler(WebSocketServerProtocolConfig.newBuilder()
                .websocketPath(WebRequests.SOCKET_PATH)
                .subprotocols(WebSocketEnvelopes.Form.JSON_SUBPROTOCOL + "," + WebSocketEnvelopes.Form.PROTO_SUBPROTOCOL)
                .allowExtensions(false)
                .maxFramePayloadLength(settings.maxFrameLength())
                .handshakeTimeoutMillis(settings.loginTimeout().toMillis())
                .build()));
        pipeline.addLast("messages", new WebSocketFrameAggregator(settings.maxFrameLength()));
        pipeline.addLast("opened", new Opened());
        ReadDeadline deadline = new ReadDeadline(settings.idleTimeout(), settings.loginTimeout());
        pipeline.addLast("deadline", deadline);
        pipeline.addLast(LoginGate.NAME, new LoginGate(chat, deadline, capacity));
        pipeline.addLast("errors", errors);
    }

    /** Puts the Envelope codec in its own place once the handshake has chosen the form. */
    private final class Opened extends ChannelInboundHandlerAdapter {

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
            super.userEventTriggered(ctx, event);
            if (event instanceof WebSocketServerProtocolHandler.HandshakeComplete done) {
                WebSocketEnvelopes.Form form = WebSocketEnvelopes.Form.of(done.selectedSubprotocol());
                ctx.pipeline().replace(this, "codec", new WebSocketEnvelopes(settings.maxFrameLength(),
                        settings.maxLoginFrameLength()));
                ctx.pipeline().addAfter("codec", "encoder", new EnvelopeEncoder(settings.maxFrameLength(),
                        form.framing()));
            }
        }
    }
}
