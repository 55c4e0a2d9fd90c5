package dev.cim.client.core;

import dev.cim.common.net.NettyTransport;
import dev.cim.common.protocol.UserNames;
import dev.cim.common.wheel.DelayScheduler;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * Settings of a {@link CimClient}. Required: the server addresses, the user, and a password (or a
 * session token). Everything else has a default.
 *
 * <h3>TLS and plaintext</h3>
 * With {@link #tls(ClientTls)} every connection speaks TLS and verifies the server before it
 * sends anything. Without it the client speaks plaintext, which it does only to loopback addresses
 * ({@code 127.0.0.0/8}, {@code ::1}, {@code localhost}) unless {@link #allowPlaintext(boolean)}:
 * {@link #build()} refuses a plaintext client for any other address, and a server's suggestion to
 * move to such an address is ignored. Elsewhere the password would cross the network in clear.
 */
public final class CimClientBuilder {

    List<ServerAddress> addresses;
    String user;
    String password;
    String token;
    CimListener listener = new CimListener() {
    };
    DelayScheduler scheduler;
    SeenIds seen;
    Duration initialBackoff = Duration.ofMillis(200);
    Duration maxBackoff = Duration.ofSeconds(5);
    Duration connectTimeout = Duration.ofSeconds(5);
    Duration nearWindow = Duration.ofHours(1);
    int maxOutstanding = 10_000;
    Clock clock = Clock.systemUTC();
    RandomGenerator random = RandomGenerator.getDefault();
    EventLoopGroup group;
    Class<? extends SocketChannel> channelType;
    boolean nativeTransport = true;
    InetSocketAddress localAddress;
    final Map<ChannelOption<?>, Object> options = new LinkedHashMap<>();
    Consumer<SocketChannel> beforeCodec = channel -> { };
    boolean webSocket;
    ClientTls tls;
    boolean allowPlaintext;

    CimClientBuilder() {
    }

    /** The servers, tried in turn (from a random one) until one answers. */
    public CimClientBuilder addresses(List<ServerAddress> addresses) {
        if (addresses == null || addresses.isEmpty()) {
            throw new IllegalArgumentException("addresses: " + addresses + " (expected: at least one host:port)");
        }
        this.addresses = List.copyOf(addresses);
        return this;
    }

    /** The servers as {@code host:port[,host:port...]}. */
    public CimClientBuilder addresses(String addresses) {
        return addresses(ServerAddress.parseList(addresses));
    }

    /**
     * The user to log in as (see {@link UserNames}: any case; the client, like the server, knows the
     * user by the lower-case form).
     */
    public CimClientBuilder user(String user) {
        UserNames.problem(user).ifPresent(problem -> {
            throw new IllegalArgumentException("user: " + problem);
        });
        this.user = UserNames.canonical(user);
        return this;
    }

    /** The password; the first login of a name creates the account with it (when the server allows). */
    public CimClientBuilder password(String password) {
        this.password = password;
        return this;
    }

    /** A session token from an earlier login, used instead of the password while it is valid. */
    public CimClientBuilder token(String token) {
        this.token = token;
        return this;
    }

    /** Hears received messages, connection changes and news about scheduled messages. */
    public CimClientBuilder listener(CimListener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * The delay wheel to hold the jobs of near-term scheduled messages on (in a Spring application,
     * the {@code DelayScheduler} bean). By default the client makes its own when it first needs one
     * and stops it when closed. A shared wheel drains when its application context stops, running
     * every job at its due time: close the client before that (on the context's
     * {@code ContextClosedEvent}), or the stop waits for its scheduled messages, which the server
     * would have sent anyway.
     */
    public CimClientBuilder scheduler(DelayScheduler scheduler) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        return this;
    }

    /** Where the ids of shown messages are kept; by default the last 10,000, in memory. */
    public CimClientBuilder seenIds(SeenIds seen) {
        this.seen = Objects.requireNonNull(seen, "seen");
        return this;
    }

    /** The first and the longest wait between connection attempts (default 200 ms and 5 s). */
    public CimClientBuilder reconnectBackoff(Duration initial, Duration max) {
        new Backoff(initial, max, random); // checks them
        this.initialBackoff = initial;
        this.maxBackoff = max;
        return this;
    }

    /** How long one connection attempt may take (default 5 s). */
    public CimClientBuilder connectTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero() || timeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("connect timeout: " + timeout + " (expected: > 0)");
        }
        this.connectTimeout = timeout;
        return this;
    }

    /** How far ahead the client holds jobs for the user's scheduled messages (default 1 hour). */
    public CimClientBuilder nearWindow(Duration window) {
        if (window.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("near window: " + window + " (expected: at least 1s)");
        }
        this.nearWindow = window;
        return this;
    }

    /** The most requests waiting for an answer at once (default 10,000); past it, new ones fail. */
    public CimClientBuilder maxOutstanding(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max outstanding: " + max + " (expected: >= 1)");
        }
        this.maxOutstanding = max;
        return this;
    }

    /** The clock for due times (default the system's, in UTC). */
    public CimClientBuilder clock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /** The source of the reconnection jitter. */
    public CimClientBuilder random(RandomGenerator random) {
        this.random = Objects.requireNonNull(random, "random");
        return this;
    }

    /**
     * Runs the client on an event loop of {@code group}, shared with other clients (a program with
     * thousands of clients), whose sockets are of {@code channelType}; by default each client has a
     * thread of its own.
     */
    public CimClientBuilder eventLoopGroup(EventLoopGroup group, Class<? extends SocketChannel> channelType) {
        this.group = Objects.requireNonNull(group, "group");
        this.channelType = Objects.requireNonNull(channelType, "channelType");
        return this;
    }

    /** False to use Java NIO even where Linux's epoll is available. */
    public CimClientBuilder nativeTransport(boolean nativeTransport) {
        this.nativeTransport = nativeTransport;
        return this;
    }

    /** The local address to connect from. */
    public CimClientBuilder localAddress(InetSocketAddress localAddress) {
        this.localAddress = localAddress;
        return this;
    }

    /** A socket option for every connection (small buffers for many idle clients, say). */
    public <T> CimClientBuilder option(ChannelOption<T> option, T value) {
        options.put(Objects.requireNonNull(option, "option"), value);
        return this;
    }

    /** Speaks TLS to every server, verified as {@code tls} says; null for plaintext. */
    public CimClientBuilder tls(ClientTls tls) {
        this.tls = tls;
        return this;
    }

    /**
     * True to allow plaintext to addresses that are not loopback (default false): the password and
     * every message then cross the network in clear.
     */
    public CimClientBuilder allowPlaintext(boolean allowPlaintext) {
        this.allowPlaintext = allowPlaintext;
        return this;
    }

    /**
     * Speaks to the servers' web port instead of their chat port: a WebSocket at {@code /ws}, each
     * message a binary Envelope ({@code cim.proto}), with TLS when {@link #tls} is set. The same
     * protocol, logins and promises; the addresses are then those of the web ports.
     */
    public CimClientBuilder webSocket(boolean webSocket) {
        this.webSocket = webSocket;
        return this;
    }

    /**
     * Adds handlers to each connection after the TLS handler (if any) and before the protocol codec:
     * to watch or shape the bytes.
     */
    public CimClientBuilder beforeCodec(Consumer<SocketChannel> beforeCodec) {
        this.beforeCodec = Objects.requireNonNull(beforeCodec, "beforeCodec");
        return this;
    }

    /**
     * The client, not yet connected ({@link CimClient#connect()}).
     *
     * @throws IllegalStateException if a required setting is missing, or the client would send its
     *         password in plaintext to an address that is not loopback
     */
    public CimClient build() {
        if (addresses == null) {
            throw new IllegalStateException("no server address (expected: addresses(\"host:port\"))");
        }
        if (user == null) {
            throw new IllegalStateException("no user (expected: user(\"name\"))");
        }
        if ((password == null || password.isEmpty()) && (token == null || token.isEmpty())) {
            throw new IllegalStateException("no password or token for " + user + " (expected: password(...))");
        }
        if (tls == null && !allowPlaintext) {
            for (ServerAddress address : addresses) {
                if (!address.isLoopback()) {
                    throw new IllegalStateException("plaintext to " + address + ", which is not a loopback address: "
                            + "the password would cross the network in clear (expected: TLS, or plaintext allowed "
                            + "explicitly)");
                }
            }
        }
        return new CimClient(this);
    }

    /** The seen ids for a new client: those given, else a store of its own (never one shared by two clients). */
    SeenIds seenIdsForNewClient() {
        return seen != null ? seen : SeenIds.inMemory(10_000);
    }

    /** The bootstrap of the client's connections, on {@code loop}: the transport and the socket options set here. */
    Bootstrap bootstrap(EventLoop loop) {
        Bootstrap bootstrap = new Bootstrap().group(loop)
                .channel(group == null ? NettyTransport.of(nativeTransport).socket() : channelType)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.ALLOCATOR, NettyTransport.ALLOCATOR)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) connectTimeout.toMillis());
        options.forEach((option, value) -> setOption(bootstrap, option, value));
        if (localAddress != null) {
            bootstrap.localAddress(localAddress);
        }
        return bootstrap;
    }

    @SuppressWarnings("unchecked")
    private static <T> void setOption(Bootstrap bootstrap, ChannelOption<?> option, Object value) {
        bootstrap.option((ChannelOption<T>) option, (T) value);
    }
}
