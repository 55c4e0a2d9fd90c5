package dev.cim.server.net;

import dev.cim.common.net.CoalescingFlushHandler;
import dev.cim.common.protocol.CimProtocolCodec;
import dev.cim.server.chat.ChatService;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import java.time.Duration;

/**
 * Builds the pipeline of each accepted connection:
 * <pre>
 *  bytes in                                                       Envelopes out
 *    |                                                                  ^
 *  [tls]       on a TLS port only: TlsOnlyGate, which becomes the SslHandler or refuses plaintext
 *  [flush]     CoalescingFlushHandler: one socket write per event-loop pass, not one per frame
 *  [codec]     CimProtocolCodec: length-prefixed frames &lt;-&gt; Envelopes, typed frame errors
 *  [deadline]  ReadDeadline: closes a connection silent for the idle timeout, or not logged in in time
 *  [login]     LoginGate: only a Login passes; replaced at login by
 *  [session]   SessionHandler: every frame to the chat core, and the connection's end
 *  [errors]    ProtocolErrorHandler: any exception -&gt; logged, error frame, close
 * </pre>
 * Everything runs on the connection's event loop; the chat core does blocking work elsewhere.
 * The TLS handler is first, next to the socket, so that the flush handler's one flush per pass
 * becomes one TLS wrap of everything written in that pass. Its handshake must finish within the
 * login timeout, like the login itself: the deadline counts from the connection's acceptance.
 */
final class CimServerInitializer extends ChannelInitializer<SocketChannel> {

    private final ChatService chat;
    private final ChannelGroup channels;
    private final CimProtocolCodec codec;
    private final Duration idleTimeout;
    private final Duration loginTimeout;
    private final ServerTls tls;
    private final ProtocolErrorHandler errors = new ProtocolErrorHandler();

    /**
     * @param channels every open connection is added here, so shutdown can reach them all
     * @param tls      the port's TLS, or null for plaintext
     */
    CimServerInitializer(ChatService chat, ChannelGroup channels, int maxFrameLength, Duration idleTimeout,
            Duration loginTimeout, ServerTls tls) {
        this.chat = chat;
        this.tls = tls;
        this.channels = channels;
        this.codec = new CimProtocolCodec(maxFrameLength);
        this.idleTimeout = idleTimeout;
        this.loginTimeout = loginTimeout;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        channels.add(ch);
        ChannelPipeline pipeline = ch.pipeline();
        if (tls != null) {
            pipeline.addLast(TlsOnlyGate.NAME, new TlsOnlyGate(tls, loginTimeout));
        }
        pipeline.addLast("flush", new CoalescingFlushHandler());
        codec.install(pipeline);
        ReadDeadline deadline = new ReadDeadline(idleTimeout, loginTimeout);
        pipeline.addLast("deadline", deadline);
        pipeline.addLast(LoginGate.NAME, new LoginGate(chat, deadline));
        pipeline.addLast("errors", errors);
    }
}
