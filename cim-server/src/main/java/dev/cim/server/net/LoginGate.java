package dev.cim.server.net;

import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.server.chat.ChatService;
import dev.cim.server.chat.ClientSession;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;

/**
 * The gate of a new connection: the first frame must be a Login, and nothing else is read until it
 * is answered. An accepted login replaces this handler with the session's {@link SessionHandler}; a
 * refused one, or any other first frame, closes the connection. A login on a full node
 * ({@link NodeCapacity}) is sent to the other nodes before anything else is done with it.
 *
 * <p>One per connection, on its event loop; the chat core does the blocking part of the login
 * (password hashing, Redis) elsewhere and answers here.
 */
final class LoginGate extends SimpleChannelInboundHandler<Envelope> {

    static final String NAME = "login";

    private final ChatService chat;
    private final ReadDeadline deadline;
    private final NodeCapacity capacity;
    private NettyConnection connection;
    private boolean asked;

    LoginGate(ChatService chat, ReadDeadline deadline, NodeCapacity capacity) {
        super(Envelope.class);
        this.chat = chat;
        this.deadline = deadline;
        this.capacity = capacity;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        connection = new NettyConnection(ctx.channel(), deadline);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Envelope envelope) {
        if (envelope.getKindCase() != Envelope.KindCase.LOGIN || asked) {
            NettyConnection.closeWithError(ctx.channel(), ErrorReply.Code.NOT_LOGGED_IN,
                    envelope.getKindCase() + " before login (expected: one LOGIN first, then wait for its result)");
            return;
        }
        asked = true;
        ctx.channel().config().setAutoRead(false); // nothing more until the login is answered
        if (!capacity.take()) {
            ctx.writeAndFlush(capacity.goAway()).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        NodeCapacity taken = capacity; // not this gate, which the session's handler replaces: it would stay with the channel
        ctx.channel().closeFuture().addListener(closed -> taken.release());
        chat.login(connection, envelope.getLogin(), new ChatService.LoginListener() {
            @Override
            public void loggedIn(ClientSession client) {
                ctx.pipeline().fireUserEventTriggered(LoggedIn.INSTANCE);
                ctx.pipeline().replace(LoginGate.this, SessionHandler.NAME, new SessionHandler(chat, client, connection));
                ctx.channel().config().setAutoRead(true);
            }

            @Override
            public void refused(String reason) {
                // the core answers and closes
            }
        });
    }
}
