package dev.cim.loadgen.relay;

import dev.cim.common.net.NettyTransport;
import dev.cim.common.protocol.CimProtocolCodec;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The ceiling the load generator measures cim against: a minimal relay on the same protocol, codec,
 * transport and event-loop settings as the server (the {@code CimProtocolCodec}, epoll where it
 * loads, one acceptor and {@code --io-threads} I/O threads, one per core unless given, the sockets of
 * {@code NettyTransport.serverBootstrap}), run as a child process of the generator.
 *
 * <h3>What it does</h3>
 * It accepts any login (no password check, no account, no session token), keeps one connection per
 * user in a map, and passes each {@code Send} to its recipient's connection as a {@code Delivery}
 * with the same {@code Chat} fields the server fills. It answers pings, and a {@code ListScheduled}
 * (which clients send at login) with an empty list.
 *
 * <h3>What it skips</h3>
 * Everything that makes a message safe or a server safe to expose: no Redis at all (no inbox, no
 * presence, no history, no origin watermarks, so a resent message is delivered again), no
 * acknowledged delivery unless {@code --acked}, no idle or login deadlines, no per-address or rate
 * limits, no window of unacknowledged messages, no second terminal of a user (a later login of the
 * same user takes the connection over), no other nodes, no scheduled messages, no groups. A message
 * to a user not connected is refused with an error.
 *
 * <h3>Answers</h3>
 * By default a send is answered as soon as its delivery is handed to the recipient's event loop:
 * the receipts of one read pass leave as one {@code Receipts} frame, as the server's do. With
 * {@code --acked} it is answered once the recipient's {@code Ack} counts it, as the server answers
 * a delivered message: the difference between the two is what acknowledged delivery itself costs.
 *
 * <pre>
 * java -cp cim-loadgen.jar dev.cim.loadgen.relay.BareRelay --port=9100 [--host=127.0.0.1] [--io-threads=0] [--acked]
 * </pre>
 * It prints {@code relay listening on <host>:<port>} once bound, and runs until killed.
 */
public final class BareRelay implements AutoCloseable {

    /** What the relay prints once it listens; the generator waits for it. */
    public static final String LISTENING = "relay listening on ";

    private final EventLoopGroup acceptor;
    private final EventLoopGroup io;
    private final Channel bound;
    private final String transport;

    private BareRelay(EventLoopGroup acceptor, EventLoopGroup io, Channel bound, String transport) {
        this.acceptor = acceptor;
        this.io = io;
        this.bound = bound;
        this.transport = transport;
    }

    /**
     * Starts a relay listening on {@code host:port} (0: any free port).
     *
     * @param ioThreads event loops, 0 for one per core, as the server's {@code cim.server.io-threads}
     *                  (not Netty's default of twice the cores)
     * @param acked     answer a send once its recipient acknowledged it, rather than on hand-over
     */
    public static BareRelay start(String host, int port, int ioThreads, boolean acked) {
        if (port < 0 || port > 65535 || ioThreads < 0) {
            throw new IllegalArgumentException("port " + port + ", I/O threads " + ioThreads
                    + " (expected: a port from 0 to 65535, threads >= 0)");
        }
        NettyTransport transport = NettyTransport.best();
        EventLoopGroup acceptor = transport.group(1, new DefaultThreadFactory("relay-accept"));
        EventLoopGroup io = transport.group(NettyTransport.serverIoThreads(ioThreads), new DefaultThreadFactory("relay-io"));
        Map<String, RelayConnection> users = new ConcurrentHashMap<>();
        CimProtocolCodec codec = new CimProtocolCodec();
        try {
            Channel bound = transport.serverBootstrap(acceptor, io)
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            codec.install(ch.pipeline());
                            ch.pipeline().addLast(new RelayConnection(users, acked));
                        }
                    })
                    .bind(host, port).syncUninterruptibly().channel();
            return new BareRelay(acceptor, io, bound, transport.name() + (acked
                    ? ", answers after the recipient's ack" : ", answers on hand-over"));
        } catch (RuntimeException e) {
            acceptor.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            io.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** The address it listens on. */
    public InetSocketAddress address() {
        return (InetSocketAddress) bound.localAddress();
    }

    @Override
    public void close() {
        bound.close().syncUninterruptibly();
        acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    public static void main(String[] args) throws InterruptedException {
        String host = "127.0.0.1";
        int port = -1;
        int ioThreads = 0;
        boolean acked = false;
        for (String arg : args) {
            if (arg.startsWith("--host=")) {
                host = arg.substring("--host=".length());
            } else if (arg.startsWith("--port=")) {
                port = number(arg);
            } else if (arg.startsWith("--io-threads=")) {
                ioThreads = number(arg);
            } else if (arg.equals("--acked")) {
                acked = true;
            } else {
                System.err.println("relay: unknown argument " + arg
                        + " (expected: --port=N [--host=H] [--io-threads=N] [--acked])");
                System.exit(2);
            }
        }
        if (port < 0) {
            System.err.println("relay: --port=N is required (expected: 0 to 65535)");
            System.exit(2);
        }
        BareRelay relay;
        try {
            relay = start(host, port, ioThreads, acked);
        } catch (IllegalArgumentException e) {
            System.err.println("relay: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.out.println(LISTENING + relay.address().getHostString() + ":" + relay.address().getPort() + " ("
                + relay.transport + ")");
        System.out.flush();
        new CountDownLatch(1).await(); // until killed
    }

    /** The number after the {@code =} of {@code arg}, or exit saying what was expected. */
    private static int number(String arg) {
        String value = arg.substring(arg.indexOf('=') + 1);
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            System.err.println("relay: " + arg + " (expected: a whole number after '=')");
            System.exit(2);
            return -1;
        }
    }
}
