package dev.cim.server.net;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.server.chat.session.Connection;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import java.net.InetSocketAddress;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A Netty channel as the chat core's {@link Connection}: its owner thread is the channel's event loop. */
final class NettyConnection implements Connection {

    private static final Logger log = LoggerFactory.getLogger(NettyConnection.class);
    /** Set on a channel by its first {@link #closeWithError}. */
    private static final AttributeKey<Boolean> CLOSING = AttributeKey.valueOf(NettyConnection.class, "closing");

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

    /*
     * Reading stops for either of two reasons, and resumes when neither holds: the core paused it
     * (the client has too many messages still being routed: the server's doing, so the idle deadline
     * waits too), or the client does not read what the server writes (its outbound buffer is over
     * the high water mark: the client's doing, so the idle deadline runs on and closes it). Either
     * way a client cannot make the server buffer more than about the high water mark for it.
     */
    private boolean pausedByCore;
    private boolean unwritable;

    @Override
    public void readPaused(boolean paused) {
        pausedByCore = paused;
        deadline.readingPaused(paused);
        applyReading();
    }

    /** The channel's writability changed (its outbound buffer crossed a water mark). */
    void writabilityChanged() {
        unwritable = !channel.isWritable();
        applyReading();
    }

    private void applyReading() {
        boolean read = !pausedByCore && !unwritable;
        if (channel.config().isAutoRead() != read) {
            channel.config().setAutoRead(read);
            if (read) {
                channel.read();
            }
        }
    }

    @Override
    public String remote() {
        return String.valueOf(channel.remoteAddress());
    }

    @Override
    public String remoteHost() {
        return channel.remoteAddress() instanceof InetSocketAddress address && address.getAddress() != null
                ? address.getAddress().getHostAddress() : String.valueOf(channel.remoteAddress());
    }

    /**
     * Logs why, sends a closing error while the peer can read it, then closes. A peer that is not
     * reading (its outbound buffer is over the high water mark) would never let the error through,
     * so it is closed at once: the reason is in the log only.
     *
     * <p>Once per channel: later calls do nothing, so the peer gets one error, the first. The channel
     * stays open until that error is written, at the end of the event loop's pass
     * ({@code EnvelopeEncoder}), and more faults may come meanwhile: the other frames of the same
     * read, a deadline.
     */
    static void closeWithError(Channel channel, ErrorReply.Code code, String reason) {
        if (!channel.isOpen() || channel.attr(CLOSING).setIfAbsent(Boolean.TRUE) != null) {
            return;
        }
        log.info("Closing {}: {}", channel.remoteAddress(), reason);
        if (channel.isActive() && channel.isWritable() && speaksFrames(channel)) {
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
