package dev.cim.server.net;

import dev.cim.common.net.Loopback;
import dev.cim.common.net.NettyTransport;
import dev.cim.common.protocol.Envelopes;
import dev.cim.server.chat.ChatService;
import dev.cim.server.store.PresenceStore;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The TCP server: binds at context start; at stop hands its clients over to the other nodes and
 * closes. It only bootstraps; the pipeline is {@link CimServerInitializer}'s business, the chat is
 * the core's.
 *
 * <h3>Plaintext and TLS</h3>
 * With {@link ServerTls} the port speaks TLS only ({@link CimServerInitializer}). Without it, the
 * server listens only on a loopback address ({@link Loopback}), unless plaintext on the network was
 * explicitly allowed: the constructor refuses otherwise, so the refusal comes before anything binds.
 *
 * <h3>Threads</h3>
 * One acceptor thread and {@code cim.server.io-threads} I/O event loops (one per core by default).
 *
 * <h3>Capacity</h3>
 * A node takes {@code cim.server.limits.max-connections} logged-in connections, by default its
 * open-file cap less a reserve; past them a login is sent to the other nodes ({@link NodeCapacity}).
 *
 * <h3>Stopping</h3>
 * Phase {@link #PHASE}: Spring stops higher phases first, so the server stops before the node
 * heartbeat and the Redis connections it uses. It stops accepting, sends every connection a
 * {@code GoAway} naming the other live nodes (those not full, if any) and the window to spread
 * reconnections over (each client picks one of them at random), gives
 * the clients {@code cim.server.shutdown.grace} to leave, and closes the rest. Each session closes
 * by storing what it had not acknowledged in its user's inbox.
 */
public final class CimServer implements SmartLifecycle {

    /** See the class comment. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1024;

    private static final Logger log = LoggerFactory.getLogger(CimServer.class);
    private static final long QUIET_MILLIS = 100;
    private static final long SHUTDOWN_TIMEOUT_MILLIS = 5_000;

    /**
     * What the TCP server needs to know (the server module's properties, as plain values).
     *
     * @param host           the address to listen on
     * @param port           the port; 0 for a free one
     * @param ioThreads      I/O event loops
     * @param epoll          Linux's epoll where it loads, else NIO
     * @param maxFrameLength the longest frame accepted
     * @param maxLoginFrameLength the longest first frame (the login) accepted
     * @param idleTimeout    a connection silent this long is closed
     * @param loginTimeout   a connection not logged in after this long is closed
     * @param connectionsPerAddress     open connections from one IP address, at most
     * @param unauthenticatedPerAddress connections from one IP address not logged in yet, at most
     * @param maxConnections logged-in connections on this node, at most ({@link NodeCapacity}); 0 for
     *                       the process's open-file cap less a reserve
     * @param shutdownGrace  how long clients have to leave when the server stops
     * @param shutdownSpread the window clients spread their reconnections over
     * @param tls            the chat port's TLS, or null for plaintext
     * @param allowPlaintext true to listen in plaintext on an address that is not loopback
     * @param web            the web port: the page, and WebSocket connections
     */
    public record Settings(String host, int port, int ioThreads, boolean epoll, int maxFrameLength,
            int maxLoginFrameLength, Duration idleTimeout, Duration loginTimeout, int connectionsPerAddress,
            int unauthenticatedPerAddress, int maxConnections, Duration shutdownGrace, Duration shutdownSpread,
            ServerTls tls, boolean allowPlaintext, Web web) {
    }

    /**
     * The web port: the page at {@code /}, and its WebSocket at {@code /ws}, on the same event loops,
     * with the chat port's TLS, limits and login.
     *
     * @param enabled        false to open no web port
     * @param host           the address to listen on
     * @param port           the port; 0 for a free one (logged)
     * @param allowedOrigins origins besides the page's own allowed to open the WebSocket
     */
    public record Web(boolean enabled, String host, int port, java.util.List<String> allowedOrigins) {

        /** No web port. */
        public static final Web NONE = new Web(false, "127.0.0.1", 0, java.util.List.of());
    }

    private final Settings settings;
    private final ChatService chat;
    private final PresenceStore presence;
    private final Supplier<List<String>> otherNodes;

    private EventLoopGroup acceptor;
    private EventLoopGroup io;
    private volatile ChannelGroup channels;
    private volatile CimServerInitializer initializer;
    private volatile NodeCapacity capacity;
    private volatile Channel serverChannel;
    private volatile Channel webChannel;

    /**
     * @param otherNodes the other live nodes that take logins, by address, as of the last heartbeat
     *                   (no call to the store: asked on the event loops): where a full node sends them
     * @throws PlaintextRefusedException if the server is to listen in plaintext on an address that
     *         is not loopback without {@link Settings#allowPlaintext()}
     */
    public CimServer(Settings settings, ChatService chat, PresenceStore presence, Supplier<List<String>> otherNodes) {
        if (settings.tls() == null && !settings.allowPlaintext() && !Loopback.isLoopback(settings.host())) {
            throw new PlaintextRefusedException(settings.host());
        }
        if (settings.web().enabled() && settings.tls() == null && !settings.allowPlaintext()
                && !Loopback.isLoopback(settings.web().host())) {
            throw new PlaintextRefusedException(settings.web().host());
        }
        this.settings = settings;
        this.chat = chat;
        this.presence = presence;
        this.otherNodes = otherNodes;
    }

    @Override
    public synchronized void start() {
        if (serverChannel != null) {
            return;
        }
        NettyTransport transport = NettyTransport.of(settings.epoll());
        acceptor = transport.group(1, new DefaultThreadFactory("cim-accept"));
        io = transport.group(settings.ioThreads(), new DefaultThreadFactory("cim-io"));
        channels = new DefaultChannelGroup("cim-connections", GlobalEventExecutor.INSTANCE);
        NodeCapacity capacity = this.capacity = new NodeCapacity(settings.maxConnections() > 0 ? settings.maxConnections()
                : NodeCapacity.fromOpenFileLimit(), presence.nodeId(), otherNodes);
        ServerBootstrap bootstrap = transport.serverBootstrap(acceptor, io)
                .childHandler(initializer = new CimServerInitializer(chat, channels, settings, capacity));
        try {
            serverChannel = bootstrap.bind(settings.host(), settings.port()).syncUninterruptibly().channel();
        } catch (Exception e) {
            shutDownPools();
            throw new ServerBindException(settings.host(), settings.port(), e);
        }
        if (settings.web().enabled()) {
            ServerBootstrap web = bootstrap.clone().childHandler(new WebServerInitializer(chat, channels, settings,
                    initializer.addresses(), capacity));
            try {
                webChannel = web.bind(settings.web().host(), settings.web().port()).syncUninterruptibly().channel();
            } catch (Exception e) {
                serverChannel.close().syncUninterruptibly();
                shutDownPools();
                throw new ServerBindException(settings.web().host(), settings.web().port(), e);
            }
            log.info("The web page is on {}://{}:{}/", settings.tls() != null ? "https" : "http", settings.web().host(),
                    webPort());
        }
        try {
            presence.heartbeat(address()); // the address as bound, for the other nodes' GoAways, at once
        } catch (RuntimeException e) {
            log.warn("Could not announce this node's address yet (the next heartbeat will): {}", e.toString());
        }
        log.info("cim server node {} listening on {} ({}, {}, {} I/O threads, idle timeout {}, max frame {} bytes, "
                + "at most {} connections)", presence.nodeId(), address(),
                settings.tls() != null ? settings.tls().description() : "plaintext", transport.name(),
                settings.ioThreads(), settings.idleTimeout(), settings.maxFrameLength(), capacity.max());
        if (settings.tls() == null && !Loopback.isLoopback(settings.host())) {
            log.warn("The chat port listens in plaintext on {}, which is not loopback "
                    + "(cim.server.tls.allow-plaintext=true): passwords and messages cross the network in clear",
                    settings.host());
        }
    }

    /** Logged-in client connections, and logins under way: what {@code cim.server.limits.max-connections} counts. */
    public int loggedInConnections() {
        NodeCapacity current = capacity;
        return current == null ? 0 : current.taken();
    }

    /** True when this node takes no more logins ({@code cim.server.limits.max-connections}). */
    public boolean full() {
        NodeCapacity current = capacity;
        return current != null && current.full();
    }

    /** Client connections not logged in yet. */
    public int unauthenticatedConnections() {
        CimServerInitializer current = initializer;
        return current == null ? 0 : current.unauthenticated();
    }

    /** The port the server listens on: the bound one when {@code cim.server.port} was 0. */
    public int port() {
        Channel channel = serverChannel;
        if (channel == null) {
            throw new IllegalStateException("the cim server is not running");
        }
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** The web port as bound, or -1 when there is none. */
    public int webPort() {
        Channel channel = webChannel;
        return channel == null ? -1 : ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** {@code host:port} as bound, or as configured before binding. */
    public String address() {
        Channel channel = serverChannel;
        return channel == null ? settings.host() + ":" + settings.port() : settings.host() + ":" + port();
    }

    /** Open client connections. */
    public int connections() {
        ChannelGroup group = channels;
        return group == null ? 0 : group.size();
    }

    @Override
    public synchronized void stop() {
        Channel listening = serverChannel;
        if (listening == null) {
            return;
        }
        listening.close().syncUninterruptibly();
        if (webChannel != null) {
            webChannel.close().syncUninterruptibly();
            webChannel = null;
        }
        int open = channels.size();
        List<String> others = otherNodes();
        channels.writeAndFlush(Envelopes.goAway("the server node " + presence.nodeId() + " is stopping", others,
                settings.shutdownSpread().toMillis()));
        // Clients leave on GoAway: wait until all have, or the grace is over.
        channels.newCloseFuture().awaitUninterruptibly(settings.shutdownGrace().toMillis());
        int stayed = channels.size();
        channels.close().awaitUninterruptibly(SHUTDOWN_TIMEOUT_MILLIS);
        shutDownPools();
        serverChannel = null;
        log.info("cim server node {} stopped: {} connection(s) told to go elsewhere ({}), {} closed by the server",
                presence.nodeId(), open, others.isEmpty() ? "no other node" : String.join(", ", others), stayed);
    }

    /** The other live nodes that take logins; if none does, all the others. */
    private List<String> otherNodes() {
        try {
            Set<String> full = presence.fullNodes();
            List<String> withRoom = new ArrayList<>();
            List<String> others = new ArrayList<>();
            for (Map.Entry<String, String> node : presence.liveNodes().entrySet()) {
                if (!node.getKey().equals(presence.nodeId())) {
                    others.add(node.getValue());
                    if (!full.contains(node.getKey())) {
                        withRoom.add(node.getValue());
                    }
                }
            }
            return withRoom.isEmpty() ? others : withRoom;
        } catch (RuntimeException e) {
            log.warn("Could not read the other live nodes for the clients: {}", e.toString());
            return List.of();
        }
    }

    private void shutDownPools() {
        Future<?>[] terminations = {
            acceptor.shutdownGracefully(QUIET_MILLIS, SHUTDOWN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS),
            io.shutdownGracefully(QUIET_MILLIS, SHUTDOWN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
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
