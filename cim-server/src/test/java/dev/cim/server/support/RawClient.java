package dev.cim.server.support;

import static org.awaitility.Awaitility.await;

import dev.cim.client.core.Recorder;
import dev.cim.common.protocol.CimProtocolCodec;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * A hand-driven connection, for what a well-behaved client never does: send any frame or bytes,
 * acknowledge nothing, resend a request under its old number, never read. Keeps every frame the
 * server sends.
 */
public final class RawClient implements AutoCloseable {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel channel;
    public final List<Envelope> received = new CopyOnWriteArrayList<>();

    private RawClient(int port, boolean codec, boolean autoRead) {
        channel = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(io.netty.channel.ChannelOption.AUTO_READ, autoRead)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (codec) {
                            new CimProtocolCodec(CimProtocolCodec.MAX_MAX_FRAME_LENGTH).install(ch.pipeline());
                            ch.pipeline().addLast(new SimpleChannelInboundHandler<Envelope>() {
                                @Override
                                protected void channelRead0(ChannelHandlerContext ctx, Envelope envelope) {
                                    received.add(envelope);
                                }
                            });
                        }
                    }
                })
                .connect("127.0.0.1", port).syncUninterruptibly().channel();
    }

    /** A connection that speaks frames. */
    public static RawClient connect(int port) {
        return new RawClient(port, true, true);
    }

    /** A connection with no codec: for raw bytes. */
    public static RawClient bytes(int port) {
        return new RawClient(port, false, true);
    }

    /** Logs in as {@code user} with {@code origin} and waits for the result. */
    public RawClient login(String user, long origin) {
        send(Envelopes.login(user, TestServer.PASSWORD, "", origin));
        org.awaitility.Awaitility.await("the login result of " + user).atMost(Recorder.WAIT)
                .until(() -> first(Envelope::hasLoginResult) != null);
        return this;
    }

    /** Stops reading what the server sends: its frames pile up in the server's buffers and the socket's. */
    public void stopReading() {
        channel.config().setAutoRead(false);
    }

    public void send(Envelope envelope) {
        channel.writeAndFlush(envelope).syncUninterruptibly();
    }

    public void sendBytes(ByteBuf bytes) {
        channel.writeAndFlush(bytes).syncUninterruptibly();
    }

    /** The first received frame matching {@code test}, or null. */
    public Envelope first(Predicate<Envelope> test) {
        return received.stream().filter(test).findFirst().orElse(null);
    }

    /** Waits for a frame matching {@code test}. */
    public Envelope await(String what, Predicate<Envelope> test) {
        org.awaitility.Awaitility.await(what + " (have " + received + ")").atMost(Recorder.WAIT)
                .until(() -> first(test) != null);
        return first(test);
    }

    /** Waits until the server has closed the connection. */
    public void awaitClosed(Duration within) {
        org.awaitility.Awaitility.await("the server closes the connection").atMost(within).until(() -> !channel.isActive());
    }

    public boolean isOpen() {
        return channel.isActive();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }
}
