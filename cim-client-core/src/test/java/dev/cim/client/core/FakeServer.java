package dev.cim.client.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.cim.common.protocol.CimProtocolCodec;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.LoginResult;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslContext;
import java.io.ByteArrayOutputStream;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A cim server the test scripts: it listens on loopback (NIO, an ephemeral port), installs the real
 * {@link CimProtocolCodec}, records every frame a client sends, and sends what the test tells it
 * to. It answers nothing by itself, not even a Login or a Ping.
 *
 * <p>Waiting methods wait for a condition with a deadline ({@link #WAIT}), never for a fixed time.
 */
final class FakeServer implements AutoCloseable {

    /** The longest a test waits for the client to do something. */
    static final Duration WAIT = Duration.ofSeconds(10);

    /** The heartbeat the fake server asks for: long enough that no test sees a Ping. */
    static final long HEARTBEAT_MILLIS = 60_000;

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final BlockingQueue<Connection> accepted = new LinkedBlockingQueue<>();
    private final List<Connection> connections = new CopyOnWriteArrayList<>();
    private final String nodeId;
    private final SslContext tls;
    private final ByteArrayOutputStream rawBytes = new ByteArrayOutputStream();
    private volatile Channel listening;
    private int port;

    private FakeServer(String nodeId, SslContext tls) {
        this.nodeId = nodeId;
        this.tls = tls;
    }

    /** A server listening on an ephemeral loopback port. */
    static FakeServer start(String nodeId) {
        FakeServer server = new FakeServer(nodeId, null);
        server.listen(0);
        return server;
    }

    /** A server that speaks TLS with {@code tls}, and keeps every byte it receives as it came. */
    static FakeServer startTls(String nodeId, SslContext tls) {
        FakeServer server = new FakeServer(nodeId, tls);
        server.listen(0);
        return server;
    }

    /** Every byte received from any client, as it crossed the network (encrypted, with TLS). */
    byte[] rawBytes() {
        synchronized (rawBytes) {
            return rawBytes.toByteArray();
        }
    }

    /** Listens (again) on the same port it listened on before {@link #stopListening()}. */
    void listenAgain() {
        listen(port);
    }

    private void listen(int onPort) {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls != null) {
                            ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                                @Override
                                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                    ByteBuf bytes = (ByteBuf) msg;
                                    synchronized (rawBytes) {
                                        rawBytes.writeBytes(ByteBufUtil.getBytes(bytes));
                                    }
                                    ctx.fireChannelRead(msg);
                                }
                            });
                            ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                        }
                        new CimProtocolCodec().install(ch.pipeline());
                        Connection connection = new Connection(ch);
                        ch.pipeline().addLast(connection.handler());
                        connections.add(connection);
                        accepted.add(connection);
                    }
                });
        listening = bootstrap.bind(new InetSocketAddress("127.0.0.1", onPort)).syncUninterruptibly().channel();
        port = ((InetSocketAddress) listening.localAddress()).getPort();
    }

    /** Closes the listening socket: new connections are refused; open ones stay. */
    void stopListening() {
        listening.close().syncUninterruptibly();
    }

    String nodeId() {
        return nodeId;
    }

    ServerAddress address() {
        return new ServerAddress("127.0.0.1", port);
    }

    /** Connections accepted so far. */
    int connectionCount() {
        return connections.size();
    }

    /** The connections accepted so far, in order. */
    List<Connection> connectionsSoFar() {
        return List.copyOf(connections);
    }

    /** The next connection accepted, waiting up to {@link #WAIT}. */
    Connection nextConnection() {
        try {
            Connection connection = accepted.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            if (connection == null) {
                fail("no connection to " + nodeId + " within " + WAIT);
            }
            return connection;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The next connection, logged in: reads its Login, accepts it, and answers the client's first job refresh. */
    Connection acceptLogin() {
        Connection connection = nextConnection();
        connection.acceptLogin();
        return connection;
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** A frame from the client, and when it arrived. */
    record Received(Envelope envelope, Instant at) {
    }

    /** One client connection. */
    final class Connection {

        private final Channel channel;
        private final BlockingQueue<Received> frames = new LinkedBlockingQueue<>();
        private final List<Envelope> all = new CopyOnWriteArrayList<>();

        Connection(Channel channel) {
            this.channel = channel;
        }

        private SimpleChannelInboundHandler<Envelope> handler() {
            return new SimpleChannelInboundHandler<>(Envelope.class) {
                @Override
                protected void channelRead0(ChannelHandlerContext ctx, Envelope envelope) {
                    all.add(envelope);
                    frames.add(new Received(envelope, Instant.now()));
                }

                @Override
                public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                    ctx.close();
                }
            };
        }

        /** The next frame from the client but Pings, waiting up to {@link #WAIT}. */
        Envelope next() {
            return nextReceived().envelope();
        }

        /** The next frame but Pings, with when it arrived. */
        Received nextReceived() {
            long deadline = System.nanoTime() + WAIT.toNanos();
            try {
                while (true) {
                    Received received = frames.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                    if (received == null) {
                        throw new AssertionError("no frame from the client within " + WAIT + "; received so far: " + all);
                    }
                    if (received.envelope().getKindCase() != Envelope.KindCase.PING) {
                        return received;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }

        /** The next frame, which must be of {@code kind}. */
        Envelope next(Envelope.KindCase kind) {
            Envelope envelope = next();
            assertThat(envelope.getKindCase()).as("the next frame from the client: %s", envelope).isEqualTo(kind);
            return envelope;
        }

        /** The next frame of {@code kind}, skipping frames of other kinds. */
        Envelope nextOf(Envelope.KindCase kind) {
            while (true) {
                Envelope envelope = next();
                if (envelope.getKindCase() == kind) {
                    return envelope;
                }
            }
        }

        /** Every frame received on this connection, in order (Pings included). */
        List<Envelope> all() {
            return List.copyOf(all);
        }

        /** Frames received and not yet taken by {@link #next()}. */
        int unread() {
            return frames.size();
        }

        /** Sends {@code envelopes} in one flush. */
        void send(Envelope... envelopes) {
            for (Envelope envelope : envelopes) {
                channel.write(envelope);
            }
            channel.flush();
        }

        /** Reads the Login, which must be the first frame, and answers it with {@code result}. */
        Envelope login(LoginResult.Builder result) {
            Envelope login = next(Envelope.KindCase.LOGIN);
            send(Envelopes.loginAccepted(result));
            return login;
        }

        /**
         * Reads the Login and accepts it, then reads the job refresh the client asks for after every
         * login and answers it with an empty list. Returns the Login.
         */
        Envelope acceptLogin() {
            Envelope login = login(LoginResult.newBuilder().setNodeId(nodeId).setHeartbeatIntervalMillis(HEARTBEAT_MILLIS));
            answerRefresh(List.of());
            return login;
        }

        /** Reads the client's refresh of near-term jobs (a ListScheduled with a bound) and answers it. */
        Envelope answerRefresh(List<dev.cim.common.protocol.proto.Scheduled> due) {
            Envelope refresh = next(Envelope.KindCase.LIST_SCHEDULED);
            assertThat(refresh.getListScheduled().getDueBeforeMillis()).as("a refresh asks for the near window only")
                    .isPositive();
            send(Envelopes.scheduledList(refresh.getRequestId(), due, false, due.size()));
            return refresh;
        }

        /** Hangs up. */
        void cut() {
            channel.close().syncUninterruptibly();
        }

        boolean isOpen() {
            return channel.isActive();
        }
    }
}
