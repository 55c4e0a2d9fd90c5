package dev.cim.server.net;

import dev.cim.common.protocol.proto.Envelope;
import dev.cim.server.chat.ChatService;
import dev.cim.server.chat.ClientSession;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;

/**
 * A logged-in connection: decodes nothing itself (the codec has), hands every frame to the chat core
 * and tells it when the connection goes. The transport's whole part in chatting.
 */
final class SessionHandler extends SimpleChannelInboundHandler<Envelope> {

    static final String NAME = "session";

    private final ChatService chat;
    private final ClientSession client;
    private final NettyConnection connection;

    SessionHandler(ChatService chat, ClientSession client, NettyConnection connection) {
        super(Envelope.class);
        this.chat = chat;
        this.client = client;
        this.connection = connection;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        connection.writabilityChanged();
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (!ctx.channel().isActive()) {
            chat.closed(client); // closed before the login was answered
        }
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Envelope envelope) {
        chat.received(client, envelope);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        chat.closed(client);
        super.channelInactive(ctx);
    }
}
