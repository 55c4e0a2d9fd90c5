package dev.cim.client.core;

import dev.cim.common.Failures;
import dev.cim.common.protocol.CimProtocolCodec;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.GoAway;
import dev.cim.common.protocol.proto.LoginResult;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's connection to the server, kept up: connects to one of the addresses, logs in (with
 * the session token once the server gave one, else the password), pings when idle, hangs up on a
 * server that has gone silent, and after any loss connects again, to the next address, after a
 * jittered backoff ({@link Backoff}). A server that says it is going away ({@code GoAway}) is left
 * for one of the nodes it names, at random, after a random wait within the spread it asks for, so
 * that its clients do not all arrive at the same node or the same moment. One that says so before
 * the login is answered (it is full) counts as a failed attempt too: refused again and again, the
 * client waits the longer of the spread and its backoff.
 *
 * <h3>TLS</h3>
 * With {@link ClientTls} the TLS handler comes first in each connection's pipeline, and the login
 * (with the password) is written only once the handshake has verified the server. A handshake
 * that fails for the configuration's sake (the certificate is not trusted or not for this server,
 * the server does not speak TLS) or a TLS-only server telling a plaintext client so, stops the link
 * as a refused login does: trying again would fail again, and a client that retried forever would
 * look like one waiting for a server that is down. A handshake cut short (a timeout, a reset) is
 * tried again like any failed connection.
 *
 * <p>Confined to the client's I/O thread; {@link Owner} hears what happens, on that thread. Its
 * length is one connection's life (connect, handshake, login, heartbeat, failover with backoff, the
 * server's GoAway), which shares the one state of which connection is current; the protocol's
 * framing and the WebSocket are installed by classes of their own.
 */
final class Link {

    /** What the link reports. */
    interface Owner {
        /** Logged in on {@code channel}. */
        void loggedIn(Channel channel, LoginResult result, ServerAddress address);

        /** A frame after login. */
        void frame(Channel channel, Envelope envelope);

        /** The end of one read of the logged-in channel. */
        void readComplete(Channel channel);

        /** The logged-in channel is gone; the link is already trying again. */
        void lost();

        /**
         * The link has stopped for good: the server refused the login with the password
         * ({@link CimException.Reason#LOGIN_REFUSED}), or TLS failed
         * ({@link CimException.Reason#TLS_FAILED}).
         */
        void stopped(CimException failure);

        /** Any change, for the listener. */
        void event(ConnectionEvent event);
    }

    private static final Logger log = LoggerFactory.getLogger(Link.class);
    /** The ping interval until the server says its own. */
    private static final Duration FIRST_HEARTBEAT = Duration.ofSeconds(5);
    /** Frames from the server may be longer than the client's own; a server sets its own limit. */
    private static final int MAX_INBOUND_FRAME = 1024 * 1024;
    private static final String IDLE = "idle";
    private static final String PINGER = "pinger";
    private static final String TLS = "tls";

    private final EventLoop loop;
    private final Bootstrap bootstrap;
    private final List<ServerAddress> addresses;
    private final String user;
    /** Forgotten once the server gave a session token: reconnecting uses the token. */
    private String password;
    private final long origin;
    private final Backoff backoff;
    private final RandomGenerator random;
    private final Clock clock;
    private final Owner owner;
    private final Consumer<SocketChannel> beforeCodec;
    private final boolean webSocket;
    private final ClientTls tls;
    private final boolean allowPlaintext;

    private String token;
    private List<ServerAddress> preferred = List.of();
    private int next;
    private int attempt;
    private Channel channel;
    private boolean loggedIn;
    private boolean closing;
    private String farewell;
    private Duration goAwayWait;
    private Duration throttled;
    private io.netty.util.concurrent.ScheduledFuture<?> retry;

    /**
     * @param settings what the program asked of its client: the addresses, the user and their
     *                 secrets, the backoff, TLS or plaintext, a WebSocket or the chat port
     * @param origin   the client's origin, the first half of its messages' ids
     */
    Link(EventLoop loop, CimClientBuilder settings, long origin, Owner owner) {
        this.loop = loop;
        this.bootstrap = settings.bootstrap(loop);
        this.addresses = List.copyOf(settings.addresses);
        this.user = settings.user;
        this.password = settings.password;
        this.token = settings.token == null ? "" : settings.token;
        this.origin = origin;
        this.backoff = new Backoff(settings.initialBackoff, settings.maxBackoff, settings.random);
        this.random = settings.random;
        this.clock = settings.clock;
        this.owner = owner;
        this.beforeCodec = settings.beforeCodec;
        this.tls = settings.tls;
        this.allowPlaintext = settings.allowPlaintext;
        this.webSocket = settings.webSocket;
        this.next = settings.random.nextInt(addresses.size()); // clients of one list spread over its servers
    }

    /** The logged-in channel, or null. */
    Channel channel() {
        return loggedIn ? channel : null;
    }

    void start() {
        assert loop.inEventLoop();
        if (channel == null && retry == null && !closing) {
            attempt();
        }
    }

    /** Stops for good: closes the connection and makes no more attempts. */
    void close() {
        assert loop.inEventLoop();
        closing = true;
        if (retry != null) {
            retry.cancel(false);
            retry = null;
        }
        if (channel != null) {
            channel.close();
        }
    }

    private void attempt() {
        retry = null;
        if (closing) {
            return;
        }
        ServerAddress address = pick();
        attempt++;
        owner.event(new ConnectionEvent.Connecting(address, attempt));
        ChannelFuture connect = bootstrap.clone().handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                if (tls != null) {
                    // Next to the socket: the codec's one flush per pass is one TLS wrap.
                    ch.pipeline().addLast(TLS, tls.newHandler(ch.alloc(), address));
                }
                beforeCodec.accept(ch);
                if (webSocket) {
                    WebSocketTransport.install(ch.pipeline(), address, tls != null, MAX_INBOUND_FRAME);
                } else {
                    new CimProtocolCodec(MAX_INBOUND_FRAME).install(ch.pipeline());
                }
                // Until the login is answered, three intervals: a busy server may take long to check a password.
                ch.pipeline().addLast(IDLE, idleHandler(FIRST_HEARTBEAT.multipliedBy(3)));
                ch.pipeline().addLast(PINGER, new Pinger(FIRST_HEARTBEAT, clock));
                ch.pipeline().addLast(new Handler(address));
            }
        }).connect(address.host(), address.port());
        channel = connect.channel();
        loggedIn = false;
        farewell = null;
        goAwayWait = null;
        throttled = null;
        connect.addListener(done -> {
            if (!done.isSuccess() && connect.channel() == channel) {
                channel = null;
                retryLater("cannot reach " + address + " (" + Failures.rootMessage(done.cause()) + ")", null);
            }
        });
    }

    private ServerAddress pick() {
        if (!preferred.isEmpty()) {
            ServerAddress first = preferred.get(0);
            preferred = preferred.subList(1, preferred.size());
            return first;
        }
        ServerAddress address = addresses.get(Math.floorMod(next, addresses.size()));
        next++;
        return address;
    }

    private void retryLater(String why, Duration wait) {
        if (closing) {
            return;
        }
        Duration delay = wait != null ? wait : backoff.next();
        if (wait == null) {
            owner.event(new ConnectionEvent.Disconnected(why, delay));
        }
        log.info("{}; reconnecting in {} ms", why, delay.toMillis());
        retry = loop.schedule(this::attempt, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Gives up on a server silent for {@code silence} (it answers every ping; the Pinger pings). */
    private static IdleStateHandler idleHandler(Duration silence) {
        return new IdleStateHandler(Math.max(1, silence.toMillis()), 0, 0, TimeUnit.MILLISECONDS);
    }

    private void loggedIn(ChannelHandlerContext ctx, LoginResult result, ServerAddress address) {
        loggedIn = true;
        attempt = 0;
        backoff.reset();
        if (!result.getSessionToken().isEmpty()) {
            token = result.getSessionToken();
            // Kept no longer than needed: from now on the token logs in, and should it be revoked
            // the user is asked again rather than logged back in behind the revocation.
            password = null;
        }
        if (result.getHeartbeatIntervalMillis() > 0) {
            Duration heartbeat = Duration.ofMillis(result.getHeartbeatIntervalMillis());
            // Two intervals: the server's idle timeout, the time it gives the client.
            ctx.pipeline().replace(IDLE, IDLE, idleHandler(heartbeat.multipliedBy(2)));
            ctx.pipeline().replace(PINGER, PINGER, new Pinger(heartbeat, clock));
        }
        owner.loggedIn(ctx.channel(), result, address);
    }

    private void goAway(Channel ch, GoAway goAway) {
        List<ServerAddress> nodes = new ArrayList<>();
        for (String node : goAway.getNodesList()) {
            try {
                ServerAddress address = ServerAddress.parse(node);
                if (tls != null || allowPlaintext || address.isLoopback()) {
                    nodes.add(address);
                } else {
                    log.warn("Not moving to {} as the server suggests: plaintext to an address that is not loopback "
                            + "would send the password in clear", address);
                }
            } catch (IllegalArgumentException ignored) {
                // unusable: skipped
            }
        }
        for (int i = nodes.size() - 1; i > 0; i--) { // the server's clients spread over the nodes it names
            Collections.swap(nodes, i, random.nextInt(i + 1));
        }
        preferred = List.copyOf(nodes);
        Duration spread = backoff.spread(Duration.ofMillis(goAway.getSpreadMillis()));
        if (!loggedIn) {
            // Refused before login (a full node): each refusal in a row waits longer, as a failure would.
            Duration failed = backoff.next();
            spread = spread.compareTo(failed) >= 0 ? spread : failed;
        }
        goAwayWait = spread;
        owner.event(new ConnectionEvent.GoingAway(goAway.getReason(), goAwayWait));
        ch.close();
    }

    private void closed(Channel ch, ServerAddress address) {
        if (ch != channel) {
            return;
        }
        channel = null;
        boolean wasLoggedIn = loggedIn;
        loggedIn = false;
        if (wasLoggedIn) {
            owner.lost();
        }
        if (goAwayWait != null) {
            retryLater("", goAwayWait);
        } else if (throttled != null) {
            owner.event(new ConnectionEvent.Disconnected(farewell, throttled));
            retryLater(farewell, throttled);
        } else if (farewell != null) {
            retryLater(farewell, null);
        } else {
            retryLater(wasLoggedIn ? "lost the connection to " + address
                    : "the server at " + address + " closed the connection before login", null);
        }
    }

    /** The handler of one connection attempt. */
    private final class Handler extends SimpleChannelInboundHandler<Envelope> {

        private final ServerAddress address;
        private boolean usedToken;

        Handler(ServerAddress address) {
            super(Envelope.class);
            this.address = address;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            if (tls == null && !webSocket) {
                login(ctx);
            } // else once the TLS handshake has verified the server, or the WebSocket is open
        }

        private void login(ChannelHandlerContext ctx) {
            usedToken = !token.isEmpty();
            ctx.writeAndFlush(Envelopes.login(user, usedToken ? "" : password, token, origin), ctx.voidPromise());
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Envelope envelope) {
            if (loggedIn) {
                if (envelope.getKindCase() == Envelope.KindCase.GO_AWAY) {
                    goAway(ctx.channel(), envelope.getGoAway());
                } else {
                    owner.frame(ctx.channel(), envelope);
                }
                return;
            }
            switch (envelope.getKindCase()) {
                case LOGIN_RESULT -> loginResult(ctx, envelope.getLoginResult());
                case GO_AWAY -> goAway(ctx.channel(), envelope.getGoAway());
                case ERROR -> {
                    if (envelope.getError().getCode() == ErrorReply.Code.TLS_REQUIRED && tls == null) {
                        tlsFailed(ctx, "the server at " + address + " accepts TLS connections only, and this client "
                                + "is set for plaintext (expected: TLS turned on)");
                    } else {
                        farewell = "the server at " + address + " said: " + envelope.getError().getMessage();
                    }
                }
                default -> log.warn("Ignoring a {} from {} before login", envelope.getKindCase(), address);
            }
        }

        private void loginResult(ChannelHandlerContext ctx, LoginResult result) {
            if (result.getOk()) {
                Link.this.loggedIn(ctx, result, address);
            } else if (result.getRetryAfterMillis() > 0) {
                // Throttled (too many failed logins or new accounts from here): the same login may
                // succeed later, so try again then rather than give up.
                throttled = Duration.ofMillis(result.getRetryAfterMillis());
                farewell = "the server at " + address + " refused the login for now: " + result.getReason();
                ctx.close();
            } else if (usedToken && password != null && !password.isEmpty()) {
                // An expired or revoked token: log in with the password at once.
                token = "";
                farewell = "the session token was refused (" + result.getReason() + "); logging in with the password";
                backoff.reset();
                ctx.close();
            } else {
                closing = true;
                owner.event(new ConnectionEvent.Refused(result.getReason()));
                owner.stopped(new CimException(CimException.Reason.LOGIN_REFUSED, "login refused: " + result.getReason()));
                ctx.close();
            }
        }

        /** Stops the link for a TLS failure, which {@code reason} describes in one line. */
        private void tlsFailed(ChannelHandlerContext ctx, String reason) {
            log.warn("Stopping: {}", reason);
            closing = true;
            owner.event(new ConnectionEvent.TlsFailed(reason));
            owner.stopped(new CimException(CimException.Reason.TLS_FAILED, reason));
            ctx.close();
        }

        private void handshakeFailed(ChannelHandlerContext ctx, Throwable cause) {
            String untrusted = TlsFailures.configurationProblem(address, cause, tls);
            if (untrusted != null) {
                tlsFailed(ctx, untrusted);
            } else {
                farewell = "the TLS handshake with " + address + " failed (" + Failures.rootMessage(cause) + ")";
                ctx.close();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (loggedIn && ctx.channel() == channel) {
                owner.readComplete(ctx.channel());
            }
            ctx.fireChannelReadComplete();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
            if (event instanceof SslHandshakeCompletionEvent handshake) {
                if (!handshake.isSuccess()) {
                    handshakeFailed(ctx, handshake.cause());
                } else if (!webSocket) {
                    login(ctx);
                }
                return;
            }
            if (WebSocketTransport.isOpened(event)) {
                login(ctx);
                return;
            }
            if (WebSocketTransport.isTimedOut(event)) {
                farewell = "the WebSocket handshake with " + address + " took too long";
                ctx.close();
                return;
            }
            if (event instanceof IdleStateEvent idle) {
                if (idle.state() == IdleState.READER_IDLE) {
                    farewell = "the server at " + address + " has been silent too long";
                    ctx.close();
                }
                return;
            }
            super.userEventTriggered(ctx, event);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closed(ctx.channel(), address);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            log.debug("Closing the connection to {} after an error", address, cause);
            if (farewell == null && !closing) {
                farewell = "the connection to " + address + " failed (" + Failures.rootMessage(cause) + ")";
            }
            ctx.close();
        }
    }
}
