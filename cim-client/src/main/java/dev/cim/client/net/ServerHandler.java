package dev.cim.client.net;

import dev.cim.client.console.ChatView;
import dev.cim.common.protocol.ChatMessage;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.LoginResult;
import dev.cim.common.protocol.proto.ServerNotice;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what the server sends and shows it; pings when the client has been quiet, and hangs up on
 * a server that has been silent for three heartbeat intervals (it answers every ping).
 */
final class ServerHandler extends SimpleChannelInboundHandler<Envelope> {

    static final String IDLE = "idle";
    private static final Logger log = LoggerFactory.getLogger(ServerHandler.class);

    private final ServerConnection connection;
    private final ChatView view;

    ServerHandler(ServerConnection connection, ChatView view) {
        super(Envelope.class);
        this.connection = connection;
        this.view = view;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Envelope envelope) {
        switch (envelope.getKindCase()) {
            case LOGIN_RESULT -> {
                LoginResult result = envelope.getLoginResult();
                if (result.getOk()) {
                    connection.loggedIn(ctx.channel(), result.getAccountCreated(),
                            Duration.ofMillis(result.getHeartbeatIntervalMillis()));
                } else {
                    connection.loginRefused(result.getReason());
                }
            }
            case CHAT -> view.chat(ChatMessage.fromProto(envelope.getChat()));
            case SERVER_NOTICE -> {
                connection.answered(envelope.getRequestId());
                ServerNotice notice = envelope.getServerNotice();
                if (notice.getKind() != ServerNotice.Kind.DELIVERED) { // a delivery is what the user expects
                    view.info(notice.getText());
                }
            }
            case ERROR -> {
                connection.answered(envelope.getRequestId());
                view.error(envelope.getError().getMessage());
            }
            case ONLINE_USERS_REPLY -> view.onlineUsers(envelope.getOnlineUsersReply().getUserNamesList());
            case PONG -> { }
            default -> log.warn("Ignoring an unexpected {} from the server", envelope.getKindCase());
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof IdleStateEvent idle) {
            if (idle.state() == IdleState.WRITER_IDLE) {
                ctx.writeAndFlush(Envelopes.ping(0, System.currentTimeMillis()));
            } else if (idle.state() == IdleState.READER_IDLE) {
                log.warn("The server has been silent too long; closing the connection");
                ctx.close();
            }
            return;
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        connection.disconnected(ctx.channel());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.warn("Closing the connection to the server after an error", cause);
        ctx.close();
    }
}
