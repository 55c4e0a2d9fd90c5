package dev.cim.loadgen;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.LoginResult;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One simulated user on one connection, speaking the real protocol: logs in when connected, pings
 * every heartbeat interval the server asked for (always, not only when idle: the cheaper rule to
 * keep and never late), and hands received chats, receipts and errors to the current
 * {@link Traffic}. Anything unexpected closes the connection, which the pool counts.
 *
 * <p>One per connection; the handler runs on the connection's event loop.
 */
final class LoadClient extends SimpleChannelInboundHandler<Envelope> {

    static final String PASSWORD = "load-pw";

    private final int index;
    private final String user;
    private final ClientCounters counters;
    private final CompletableFuture<LoadClient> loggedIn = new CompletableFuture<>();
    private volatile Traffic traffic = Traffic.NONE;
    private volatile Channel channel;
    private volatile boolean closing;
    private ScheduledFuture<?> heartbeat;

    LoadClient(int index, String user, ClientCounters counters) {
        super(Envelope.class);
        this.index = index;
        this.user = user;
        this.counters = counters;
    }

    int index() {
        return index;
    }

    String user() {
        return user;
    }

    /** Completes when the server accepted the login; fails when it refused or the connection failed. */
    CompletableFuture<LoadClient> loggedIn() {
        return loggedIn;
    }

    void traffic(Traffic traffic) {
        this.traffic = traffic;
    }

    boolean isOpen() {
        Channel ch = channel;
        return ch != null && ch.isActive();
    }

    /** The event loop this client's connection runs on; null before it connected. */
    EventLoop eventLoop() {
        Channel ch = channel;
        return ch == null ? null : ch.eventLoop();
    }

    /** Writes and flushes {@code envelope} from any thread; a failed write closes the connection. */
    void send(Envelope envelope) {
        Channel ch = channel;
        ch.writeAndFlush(envelope, ch.voidPromise());
    }

    /** The connection could not even be made. */
    void connectFailed(Throwable cause) {
        loggedIn.completeExceptionally(cause);
    }

    /** Closes the connection on purpose (not counted as lost). */
    void close() {
        closing = true;
        Channel ch = channel;
        if (ch != null) {
            ch.close();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        ctx.writeAndFlush(Envelopes.loginRequest(0, user, PASSWORD));
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Envelope envelope) {
        long now = System.nanoTime();
        switch (envelope.getKindCase()) {
            case CHAT -> traffic.onChat(this, envelope.getChat(), now);
            case SERVER_NOTICE -> traffic.onNotice(this, envelope.getRequestId(), envelope.getServerNotice());
            case ERROR -> {
                counters.errors.increment();
                traffic.onError(this, envelope.getRequestId(), envelope.getError());
            }
            case PONG -> counters.pongs.increment();
            case LOGIN_RESULT -> loginResult(ctx, envelope.getLoginResult());
            default -> counters.unexpected.increment();
        }
    }

    private void loginResult(ChannelHandlerContext ctx, LoginResult result) {
        if (!result.getOk()) {
            loggedIn.completeExceptionally(new IOException("login of " + user + " refused: " + result.getReason()));
            ctx.close();
            return;
        }
        long interval = Math.max(1, result.getHeartbeatIntervalMillis());
        heartbeat = ctx.executor().scheduleAtFixedRate(() -> {
            counters.pings.increment();
            ctx.writeAndFlush(Envelopes.ping(0, System.currentTimeMillis()), ctx.voidPromise());
        }, interval, interval, TimeUnit.MILLISECONDS);
        loggedIn.complete(this);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (heartbeat != null) {
            heartbeat.cancel(false);
        }
        if (!closing && loggedIn.isDone() && !loggedIn.isCompletedExceptionally()) {
            counters.dropped.increment();
        }
        loggedIn.completeExceptionally(new IOException("connection of " + user + " closed before login"));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        counters.exceptions.increment();
        ctx.close();
    }
}
