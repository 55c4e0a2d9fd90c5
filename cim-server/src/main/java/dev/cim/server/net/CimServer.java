package dev.cim.server.net;

import dev.cim.common.net.NettyTransport;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.server.CimServerProperties;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The TCP server: binds at context start, and at stop closes every connection and shuts its thread
 * pools down. It only bootstraps; the pipeline is {@link CimServerInitializer}'s business.
 *
 * <h3>Threads</h3>
 * One acceptor thread, the default number of I/O event loops (two per core), and
 * {@code cim.server.worker-threads} threads for the handlers that block.
 *
 * <h3>Lifecycle</h3>
 * Phase {@link #PHASE}, below {@link SmartLifecycle#DEFAULT_PHASE}: Spring stops higher phases
 * first, so the delay wheel (default phase) drains before the server closes connections, and the
 * server stops before the presence heartbeat and the Redis connection factory (phase 0) it uses.
 * Stopping tells each connection {@code SHUTTING_DOWN}, closes it, and waits for the handlers to
 * have closed their sessions before the pools go.
 */
public final class CimServer implements SmartLifecycle {

    /** See the class comment. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1024;

    private static final Logger log = LoggerFactory.getLogger(CimServer.class);
    private static final long QUIET_MILLIS = 100;
    private static final long SHUTDOWN_TIMEOUT_MILLIS = 5_000;

    private final CimServerProperties properties;
    private final ChatServices services;

    private EventLoopGroup acceptor;
    private EventLoopGroup io;
    private EventExecutorGroup blocking;
    private ChannelGroup channels;
    private volatile Channel serverChannel;

    public CimServer(ChatServices services) {
        this.services = services;
        this.properties = services.properties();
    }

    @Override
    public synchronized void start() {
        if (serverChannel != null) {
            return;
        }
        NettyTransport transport = properties.epoll() ? NettyTransport.best() : NettyTransport.nio();
        acceptor = transport.group(1, new DefaultThreadFactory("cim-accept"));
        io = transport.group(properties.effectiveIoThreads(), new DefaultThreadFactory("cim-io"));
        blocking = new DefaultEventExecutorGroup(properties.workerThreads(), new DefaultThreadFactory("cim-worker"));
        channels = new DefaultChannelGroup("cim-connections", GlobalEventExecutor.INSTANCE);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(acceptor, io)
                .channel(transport.serverSocket())
                .option(ChannelOption.SO_BACKLOG, 256)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new CimServerInitializer(services, blocking, channels));
        try {
            serverChannel = bootstrap.bind(properties.host(), properties.port()).syncUninterruptibly().channel();
        } catch (Exception e) {
            shutDownPools();
            throw new ServerBindException(properties.host(), properties.port(), e);
        }
        log.info("cim server node {} listening on {} ({}, {} I/O threads, idle timeout {}, max frame {} bytes)",
                services.presence().nodeId(), address(), transport.name(), properties.effectiveIoThreads(),
                properties.idleTimeout(),
                properties.maxFrameSize().toBytes());
    }

    /** The port the server listens on: the bound one when {@code cim.server.port} was 0. */
    public int port() {
        Channel channel = serverChannel;
        if (channel == null) {
            throw new IllegalStateException("the cim server is not running");
        }
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** {@code host:port} as bound, or as configured before binding. */
    public String address() {
        Channel channel = serverChannel;
        return channel == null ? properties.host() + ":" + properties.port()
                : properties.host() + ":" + port();
    }

    @Override
    public synchronized void stop() {
        Channel listening = serverChannel;
        if (listening == null) {
            return;
        }
        listening.close().syncUninterruptibly();
        int open = channels.size();
        channels.writeAndFlush(Envelopes.error(0, ErrorReply.Code.SHUTTING_DOWN, "the server is shutting down", true));
        channels.close().awaitUninterruptibly(SHUTDOWN_TIMEOUT_MILLIS);
        shutDownPools();
        serverChannel = null;
        log.info("cim server node {} stopped; closed {} connection(s)", services.presence().nodeId(), open);
    }

    private void shutDownPools() {
        // All at once, each waiting for a quiet period without new tasks: closing a connection
        // sends events back and forth between the I/O loop and the blocking group (channelInactive
        // to the chat handler, which closes the session; channelUnregistered after it), so neither
        // may terminate while the other can still hand it work.
        Future<?>[] terminations = {
            acceptor.shutdownGracefully(QUIET_MILLIS, SHUTDOWN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS),
            io.shutdownGracefully(QUIET_MILLIS, SHUTDOWN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS),
            blocking.shutdownGracefully(QUIET_MILLIS, SHUTDOWN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
        };
        for (Future<?> termination : terminations) {
            termination.awaitUninterruptibly();
        }
    }

    @Override
    public boolean isRunning() {
        return serverChannel != null;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
