package dev.cim.common.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;

/**
 * The Netty transport to run on: Linux's native epoll where its library loads (the x86-64, aarch64
 * and riscv64 builds ship inside {@code netty-all}), else Java NIO. Epoll costs fewer system calls
 * and less garbage per read and write than NIO's selector, which matters on a chat path that is
 * mostly small frames. Group and channel types must match, so they come from one place.
 *
 * @param name         {@code "epoll"} or {@code "nio"}, for logs
 * @param ioHandler    makes the I/O handler of each event loop (Netty 4.2's split of event loop and
 *                     transport)
 * @param socket       the client socket channel type
 * @param serverSocket the listening socket channel type
 */
public record NettyTransport(String name, Supplier<IoHandlerFactory> ioHandler,
        Class<? extends SocketChannel> socket, Class<? extends ServerChannel> serverSocket) {

    private static final NettyTransport EPOLL = new NettyTransport("epoll", EpollIoHandler::newFactory,
            EpollSocketChannel.class, EpollServerSocketChannel.class);
    private static final NettyTransport NIO = new NettyTransport("nio", NioIoHandler::newFactory,
            NioSocketChannel.class, NioServerSocketChannel.class);

    /**
     * The buffer allocator of every cim connection: Netty's pooled allocator, with its per-thread
     * caches, rather than Netty 4.2's default adaptive one. A chat connection allocates small buffers
     * at a high rate on its event loop (a read's buffer, a pass's frames, their direct copy), which is
     * what the thread caches serve; in the closed-loop load the adaptive allocator cost more CPU per
     * message in server and generator (BENCHMARKS.md). Set with {@code ChannelOption.ALLOCATOR}.
     */
    public static final ByteBufAllocator ALLOCATOR = PooledByteBufAllocator.DEFAULT;

    /**
     * The write-buffer water marks of a server's connections: writes above the high mark are queued
     * but the channel reads as unwritable (the server's per-session window bounds them).
     */
    public static final WriteBufferWaterMark SERVER_WATER_MARK = new WriteBufferWaterMark(256 * 1024, 1024 * 1024);

    /** Epoll where available, else NIO. */
    public static NettyTransport best() {
        return Epoll.isAvailable() ? EPOLL : NIO;
    }

    /** Java NIO, on any platform. */
    public static NettyTransport nio() {
        return NIO;
    }

    /** {@link #best()} when {@code preferNative}, else {@link #nio()}. */
    public static NettyTransport of(boolean preferNative) {
        return preferNative ? best() : NIO;
    }

    /**
     * The I/O threads of a chat server: {@code configured}, or one per core when it is 0 (not
     * Netty's default of twice the cores). The cim server ({@code cim.server.io-threads}) and the
     * load generator's relay both take theirs from here, so the relay runs the server's settings.
     */
    public static int serverIoThreads(int configured) {
        return configured > 0 ? configured : Runtime.getRuntime().availableProcessors();
    }

    /**
     * An event loop group of this transport.
     *
     * @param threads event loops, at least 0 (0: Netty's default, twice the cores)
     */
    public EventLoopGroup group(int threads, ThreadFactory threadFactory) {
        if (threads < 0) {
            throw new IllegalArgumentException("threads: " + threads + " (expected: >= 0, 0 for Netty's default)");
        }
        return new MultiThreadIoEventLoopGroup(threads, threadFactory, ioHandler.get());
    }

    /**
     * A server bootstrap of this transport with the settings of every cim server connection: a
     * backlog of 1,024, TCP_NODELAY (chat frames are small and must not wait), the
     * {@link #ALLOCATOR} and the {@link #SERVER_WATER_MARK}. The chat server and the load
     * generator's relay both start from it, so the relay measured against the server runs the same
     * sockets.
     */
    public ServerBootstrap serverBootstrap(EventLoopGroup acceptor, EventLoopGroup io) {
        return new ServerBootstrap()
                .group(acceptor, io)
                .channel(serverSocket)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOCATOR, ALLOCATOR)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, SERVER_WATER_MARK);
    }
}
