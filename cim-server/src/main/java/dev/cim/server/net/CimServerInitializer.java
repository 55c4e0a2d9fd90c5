package dev.cim.server.net;

import dev.cim.common.net.CoalescingFlushHandler;
import dev.cim.common.protocol.CimProtocolCodec;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.EventExecutorGroup;
import java.util.concurrent.TimeUnit;

/**
 * Builds the pipeline of each accepted connection:
 * <pre>
 *  bytes in                                                       Envelopes out
 *    |                                                                  ^
 *  [flush]     CoalescingFlushHandler: one socket write per event-loop pass, not one per frame
 *  [idle]      IdleStateHandler: fires an event after idle-timeout of silence
 *  [codec]     CimProtocolCodec: length-prefixed frames &lt;-&gt; Envelopes, typed frame errors
 *  [login]     LoginHandler*: only a LoginRequest passes; removed after login
 *  [heartbeat] HeartbeatHandler: Ping -&gt; Pong; closes on the idle event
 *  [chat]      ChatHandler: added at login; routes chat, answers online-users requests
 *  [errors]    ProtocolErrorHandler: any exception -&gt; logged, error frame, close
 * </pre>
 * The login handler, marked *, blocks (password hashing, Redis) and so runs on the {@code blocking}
 * executor group instead of the I/O event loop; Netty pins each connection to one of its threads, so
 * a connection's frames are still handled one at a time and in order. The chat handler runs on the
 * I/O event loop and hands only its Redis work to that same pinned thread.
 */
final class CimServerInitializer extends ChannelInitializer<SocketChannel> {

    static final String FLUSH = "flush";
    static final String IDLE = "idle";
    static final String LOGIN_HANDLER = "login";
    static final String HEARTBEAT = "heartbeat";
    static final String CHAT_HANDLER = "chat";
    static final String ERRORS = "errors";

    private final ChatServices services;
    private final EventExecutorGroup blocking;
    private final ChannelGroup channels;
    private final CimProtocolCodec codec;
    private final HeartbeatHandler heartbeat;
    private final ProtocolErrorHandler errors = new ProtocolErrorHandler();

    /**
     * @param blocking the executors for handlers that block
     * @param channels every open connection is added here, so shutdown can close them all
     */
    CimServerInitializer(ChatServices services, EventExecutorGroup blocking, ChannelGroup channels) {
        this.services = services;
        this.blocking = blocking;
        this.channels = channels;
        this.codec = new CimProtocolCodec((int) services.properties().maxFrameSize().toBytes());
        this.heartbeat = new HeartbeatHandler(services.clock(), services.properties().idleTimeout());
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        channels.add(ch);
        ChannelPipeline pipeline = ch.pipeline();
        pipeline.addLast(FLUSH, new CoalescingFlushHandler());
        // Reader idleness only: a client that keeps reading our broadcasts but never pings is gone.
        pipeline.addLast(IDLE, new IdleStateHandler(
                services.properties().idleTimeout().toMillis(), 0, 0, TimeUnit.MILLISECONDS));
        codec.install(pipeline);
        pipeline.addLast(blocking, LOGIN_HANDLER, new LoginHandler(services));
        pipeline.addLast(HEARTBEAT, heartbeat);
        pipeline.addLast(ERRORS, errors);
    }
}
