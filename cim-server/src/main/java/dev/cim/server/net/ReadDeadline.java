package dev.cim.server.net;

import dev.cim.common.protocol.proto.ErrorReply;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.concurrent.Ticker;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection that is silent for too long (or reads nothing the server sends, so that the
 * server stopped reading it), and one that has not logged in in time.
 *
 * <ul>
 *   <li><b>Idle:</b> a connection that sends no frame for {@code idleTimeout} is closed. Only whole
 *       frames count (a byte at a time does not keep a connection alive), and only while the server
 *       is reading it: when the server has paused reading a client that sends faster than it can
 *       handle, that silence is the server's doing, not the client's. Nor does it count before the
 *       login is answered: a client waiting for its answer sends nothing, and a login that takes long
 *       (a busy server checking passwords) is the server's doing too; the idle time counts from the
 *       login, the login deadline bounds what comes before it.</li>
 *   <li><b>Login:</b> a connection that has not logged in {@code loginTimeout} after it was accepted
 *       is closed, whatever it sends: traffic does not extend the deadline. On a TLS port the
 *       handshake comes first and counts against it too; a connection whose handshake has not
 *       finished is closed without the error frame, which could not reach it.</li>
 * </ul>
 * <h3>Time</h3>
 * The time is the event loop's ({@link io.netty.util.concurrent.EventExecutorGroup#ticker()}), read
 * when a frame arrives and when a deadline's check runs, and the checks are scheduled on that same
 * loop: the deadlines follow whatever time the loop keeps, so a test moves them with an
 * {@code EmbeddedChannel}'s {@code advanceTimeBy}, as Netty tests its {@code IdleStateHandler}.
 *
 * <p>The checks run on a grid of that time ({@link #grid}: a thirty-second of the idle timeout, at
 * most a second), each at the first point of the grid at or after its deadline, so that the checks
 * of all the connections due within one step share one wake-up of the loop. At rest, a node of
 * 19,000 connections, each checked every 45-90 s (the default idle timeout), would otherwise wake
 * its loops some 300 times a second for the checks alone. A deadline is met up to one step late.
 *
 * <p>One per connection, on its event loop.
 */
final class ReadDeadline extends ChannelDuplexHandler {

    private final long idleNanos;
    private final long loginNanos;
    private final long gridNanos;
    private Ticker ticker;
    private long lastFrame;
    private boolean paused;
    private boolean loggedIn;
    private ScheduledFuture<?> check;

    ReadDeadline(Duration idleTimeout, Duration loginTimeout) {
        this.idleNanos = idleTimeout.toNanos();
        this.loginNanos = loginTimeout.toNanos();
        this.gridNanos = grid(idleTimeout).toNanos();
    }

    /** The step of the grid the checks of connections with {@code idleTimeout} run on. */
    static Duration grid(Duration idleTimeout) {
        return Duration.ofNanos(Math.max(1, Math.min(idleTimeout.toNanos() / 32, TimeUnit.SECONDS.toNanos(1))));
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        ticker = ctx.executor().ticker();
        lastFrame = ticker.nanoTime();
        long loginDeadline = lastFrame + loginNanos;
        ctx.executor().schedule(() -> {
            if (!loggedIn && ctx.channel().isOpen() && ticker.nanoTime() - loginDeadline >= 0) {
                NettyConnection.closeWithError(ctx.channel(), ErrorReply.Code.IDLE_TIMEOUT,
                        "not logged in within " + loginNanos / 1_000_000 + " ms of connecting (expected: a Login first)");
            }
        }, onGrid(loginNanos), TimeUnit.NANOSECONDS);
        // The idle check starts at the login (userEventTriggered): before it, the login deadline.
    }

    private void schedule(ChannelHandlerContext ctx, long delayNanos) {
        check = ctx.executor().schedule(() -> checkIdle(ctx), onGrid(delayNanos), TimeUnit.NANOSECONDS);
    }

    /** {@code delayNanos} from now, lengthened to the first point of the grid at or after it. */
    private long onGrid(long delayNanos) {
        long late = Math.floorMod(ticker.nanoTime() + delayNanos, gridNanos);
        return late == 0 ? delayNanos : delayNanos + gridNanos - late;
    }

    private void checkIdle(ChannelHandlerContext ctx) {
        if (!ctx.channel().isOpen()) {
            return;
        }
        long silent = ticker.nanoTime() - lastFrame;
        if (paused || silent < idleNanos) {
            schedule(ctx, paused ? idleNanos : idleNanos - silent);
            return;
        }
        if (!ctx.channel().isWritable()) {
            NettyConnection.closeWithError(ctx.channel(), ErrorReply.Code.IDLE_TIMEOUT, "read nothing the server sent for "
                    + idleNanos / 1_000_000 + " ms (expected: a client that reads its messages)");
            return;
        }
        NettyConnection.closeWithError(ctx.channel(), ErrorReply.Code.IDLE_TIMEOUT, "sent nothing for "
                + idleNanos / 1_000_000 + " ms (expected: a ping at least every " + idleNanos / 2_000_000 + " ms)");
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event == LoggedIn.INSTANCE && !loggedIn) {
            loggedIn = true;
            lastFrame = ticker.nanoTime();
            schedule(ctx, idleNanos);
        }
        super.userEventTriggered(ctx, event);
    }

    /** The server stopped (or started again) reading this connection. */
    void readingPaused(boolean isPaused) {
        paused = isPaused;
        if (!isPaused) {
            lastFrame = ticker.nanoTime();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        lastFrame = ticker.nanoTime(); // placed after the codec: every message is a whole frame
        ctx.fireChannelRead(msg);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (check != null) {
            check.cancel(false);
        }
    }
}
