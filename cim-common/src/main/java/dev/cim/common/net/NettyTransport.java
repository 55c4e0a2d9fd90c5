package dev.cim.common.net;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.concurrent.ThreadFactory;

/**
 * The Netty transport to run on: Linux's native epoll where its library loads (the x86-64, aarch64
 * and riscv64 builds ship inside {@code netty-all}), else Java NIO. Epoll costs fewer system calls
 * and less garbage per read and write than NIO's selector, which matters on a chat path that is
 * mostly small frames. Group and channel types must match, so they come from one place.
 *
 * @param name        {@code "epoll"} or {@code "nio"}, for logs
 * @param factory     makes event loop groups of this transport
 * @param socket      the client socket channel type
 * @param serverSocket the listening socket channel type
 */
public record NettyTransport(String name, GroupFactory factory, Class<? extends SocketChannel> socket,
        Class<? extends ServerChannel> serverSocket) {

    /** Makes an event loop group; {@code threads} 0 means Netty's default, twice the cores. */
    @FunctionalInterface
    public interface GroupFactory {
        EventLoopGroup create(int threads, ThreadFactory threadFactory);
    }

    private static final NettyTransport EPOLL = new NettyTransport("epoll", EpollEventLoopGroup::new,
            EpollSocketChannel.class, EpollServerSocketChannel.class);
    private static final NettyTransport NIO = new NettyTransport("nio", NioEventLoopGroup::new,
            NioSocketChannel.class, NioServerSocketChannel.class);

    /** Epoll where available, else NIO. */
    public static NettyTransport best() {
        return Epoll.isAvailable() ? EPOLL : NIO;
    }

    /** Java NIO, on any platform. */
    public static NettyTransport nio() {
        return NIO;
    }

    /**
     * @param threads event loops, at least 0 (0: Netty's default)
     */
    public EventLoopGroup group(int threads, ThreadFactory threadFactory) {
        if (threads < 0) {
            throw new IllegalArgumentException("threads: " + threads + " (expected: >= 0, 0 for Netty's default)");
        }
        return factory.create(threads, threadFactory);
    }
}
