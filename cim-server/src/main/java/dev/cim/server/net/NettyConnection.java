package dev.cim.server.net;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.server.chat.Connection;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.handler.ssl.SslHandler;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A Netty channel as the chat core's {@link Connection}: its owner thread is the channel's event loop. */
final class NettyConnection implements Connection {

    private static final Logger log = LoggerFactory.getLogger(NettyConnection.class);

    private final Channel channel;
    private final ReadDeadline deadline;

    NettyConnection(Channel channel, ReadDeadline deadline) {
        this.channel = channel;
        this.deadline = deadline;
    }

    Channel channel() {
        return channel;
    }

    @Override
    public Executor owner() {
        return channel.eventLoop();
    }

    @Override
    public boolean inOwner() {
        return channel.eventLoop().inEventLoop();
    }

    @Override
    public void write(Envelope envelope) {
        channel.write(envelope, channel.voidPromise());
    }

    @Override
    public void flush() {
        channel.flush();
    }

    @Override
    public boolean isOpen() {
        return channel.isActive();
    }

    @Override
    public long pendingBytes() {
        ChannelOutboundBuffer buffer = channel.unsafe().outboundBuffer();
        return buffer == null ? 0 : buffer.totalPendingWriteBytes();
    }

    @Override
    public void close(ErrorReply.Code code, String reason) {
        closeWithError(channel, code, reason);
    }

    @Override
    public void readPaused(boolean paused) {
        if (channel.config().isAutoRead() == paused) {
            channel.config().setAutoRead(!paused);
            deadline.readingPaused(paused);
            if (!paused) {
                channel.read();
            }
        }
    }

    @Override
    public String remote() {
        return String.valueOf(channel.remoteAddress());
    }

    /** Logs why, sends a closing error while the peer can read it, then closes. */
    static void closeWithError(Channel channel, ErrorReply.Code code, String reason) {
        if (!channel.isOpen()) {
            return;
        }
        log.info("Closing {}: {}", channel.remoteAddress(), reason);
        if (channel.isActive() && speaksFrames(channel)) {
            channel.writeAndFlush(Envelopes.error(0, code, reason, true)).addListener(ChannelFutureListener.CLOSE);
        } else {
            channel.close();
        }
    }

    /**
     * False while the connection's TLS handshake has not finished (or not begun): a frame written
     * then would wait for the handshake, and the close waiting on the write with it, so a client that
     * never finishes its handshake would never be closed.
     */
    private static boolean speaksFrames(Channel channel) {
        if (channel.pipeline().get(TlsOnlyGate.class) != null) {
            return false;
        }
        SslHandler tls = channel.pipeline().get(SslHandler.class);
        return tls == null || tls.handshakeFuture().isSuccess();
    }
}
