package dev.cim.server.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.protocol.ChatMessage;
import dev.cim.common.protocol.CimProtocolCodec;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A raw protocol client over real TCP, for tests. Frames received go to a queue; {@link #next()}
 * waits for one with a deadline, skipping the Pongs of the automatic heartbeat. With a heartbeat the
 * client pings whenever it wrote nothing for that long, as a real client does; without one it stays
 * silent.
 */
public final class TestClient implements AutoCloseable {

    /** How long to wait for something that should happen. */
    public static final Duration WAIT = Duration.ofSeconds(10);
    /** The request id of automatic pings, whose Pongs {@link #next()} skips. */
    private static final long AUTO_PING = 7_777_777L;

    private final BlockingQueue<Envelope> received = new LinkedBlockingQueue<>();
    private final AtomicLong requestIds = new AtomicLong();
    private final Channel channel;

    private TestClient(EventLoopGroup group, int port, Duration heartbeat) {
        this.channel = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (heartbeat != null) {
                            ch.pipeline().addLast(new IdleStateHandler(0, heartbeat.toMillis(), 0, TimeUnit.MILLISECONDS));
                        }
                        new CimProtocolCodec().install(ch.pipeline());
                        ch.pipeline().addLast(new Receiver());
                    }
                })
                .connect("127.0.0.1", port).syncUninterruptibly().channel();
    }

    /** Connects a client that pings every {@code heartbeat} of its own silence; null for never. */
    public static TestClient connect(EventLoopGroup group, int port, Duration heartbeat) {
        return new TestClient(group, port, heartbeat);
    }

    /** A new request id. */
    public long nextRequestId() {
        return requestIds.incrementAndGet();
    }

    public void send(Envelope envelope) {
        channel.writeAndFlush(envelope).syncUninterruptibly();
    }

    /** Sends bytes as they are, bypassing the codec. */
    public void sendRaw(ByteBuf bytes) {
        channel.pipeline().firstContext().writeAndFlush(bytes).syncUninterruptibly();
    }

    /** Logs in and returns the LoginResult. */
    public Envelope login(String user, String password) {
        long id = nextRequestId();
        send(Envelopes.loginRequest(id, user, password));
        Envelope result = next();
        assertThat(result.getKindCase()).as("answer to login").isEqualTo(Envelope.KindCase.LOGIN_RESULT);
        assertThat(result.getRequestId()).isEqualTo(id);
        return result;
    }

    /** Logs in, expecting success. */
    public TestClient loggedInAs(String user, String password) {
        Envelope result = login(user, password);
        assertThat(result.getLoginResult().getOk()).as("login of " + user + ": " + result).isTrue();
        return this;
    }

    /** Sends a chat to {@code recipient} and returns the server's answer (notice or error). */
    public Envelope chat(String recipient, String text) {
        long id = nextRequestId();
        send(Envelopes.chat(id, ChatMessage.outgoing(recipient, text)));
        Envelope answer = next();
        assertThat(answer.getRequestId()).as("answer to chat " + text + ": " + answer).isEqualTo(id);
        return answer;
    }

    /** The next frame other than an automatic Pong; fails after {@link #WAIT}. */
    public Envelope next() {
        try {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (true) {
                Envelope e = received.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (e == null) {
                    throw new AssertionError("nothing received within " + WAIT);
                }
                if (!(e.getKindCase() == Envelope.KindCase.PONG && e.getRequestId() == AUTO_PING)) {
                    return e;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The next frame, which must be a chat message; returned as a record. */
    public ChatMessage nextChat() {
        Envelope e = next();
        assertThat(e.getKindCase()).as("expected a chat, got " + e).isEqualTo(Envelope.KindCase.CHAT);
        return ChatMessage.fromProto(e.getChat());
    }

    /**
     * Pings and returns every frame received before the Pong: once the server has answered a later
     * request, whatever it had sent this client before has arrived, so "nothing else" is checkable.
     */
    public List<Envelope> drainUntilPong() {
        long id = nextRequestId();
        send(Envelopes.ping(id, 1));
        List<Envelope> before = new ArrayList<>();
        for (Envelope e = next(); !(e.getKindCase() == Envelope.KindCase.PONG && e.getRequestId() == id); e = next()) {
            before.add(e);
        }
        return before;
    }

    /** Waits until the server has closed the connection. */
    public void awaitClosed() {
        assertThat(channel.closeFuture().awaitUninterruptibly(WAIT.toMillis()))
                .as("connection closed by the server within " + WAIT).isTrue();
    }

    public boolean isOpen() {
        return channel.isActive();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
    }

    private final class Receiver extends SimpleChannelInboundHandler<Envelope> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Envelope msg) {
            received.add(msg);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof IdleStateEvent) {
                ctx.writeAndFlush(Envelopes.ping(AUTO_PING, System.currentTimeMillis()));
            }
        }
    }
}
