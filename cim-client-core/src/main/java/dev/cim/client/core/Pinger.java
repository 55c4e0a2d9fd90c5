package dev.cim.client.core;

import dev.cim.common.protocol.Envelopes;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Pings the server once every interval while the connection is open, so that the server hears from
 * an idle client and answers (the connection's {@code IdleStateHandler} gives up on a server silent
 * for two intervals).
 *
 * <p>Every interval, whether the client wrote meanwhile or not: watching the writes for a
 * writer-idle ping ({@code IdleStateHandler}'s writer timeout) costs a promise and a listener on every
 * frame written, some 7 % of the load generator's CPU when it schedules thousands of messages a
 * second; a ping every interval (5 s at first, the server's heartbeat interval after logging in) is
 * a few bytes.
 *
 * <p>On a grid of the clock: each ping goes at the last tenth of a second of the clock at or before
 * its interval is up, up to {@value #GRID_MILLIS} ms early. Clients whose clocks agree (NTP keeps
 * them within milliseconds) then ping a server at the same few instants of each second, and its
 * event loop reads the pings that came together in one wake-up: at rest, a wake-up, more than the
 * ping it reads, is what a ping costs a server (19,000 clients pinging every 45 s otherwise wake its
 * loops 422 times a second). A tenth of a second keeps each instant's pings few.
 */
final class Pinger extends ChannelInboundHandlerAdapter {

    /** The step of the grid the pings land on. */
    static final long GRID_MILLIS = 100;
    /** The shortest interval put on the grid: ten steps, so that a ping is at most a tenth early. */
    static final long ALIGNED_FROM_MILLIS = 10 * GRID_MILLIS;

    private final long intervalMillis;
    private final Clock clock;
    private ScheduledFuture<?> pings;

    Pinger(Duration interval, Clock clock) {
        this.intervalMillis = Math.max(1, interval.toMillis());
        this.clock = clock;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            start(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        start(ctx);
        super.channelActive(ctx);
    }

    private void start(ChannelHandlerContext ctx) {
        if (pings == null) {
            next(ctx);
        }
    }

    private void next(ChannelHandlerContext ctx) {
        pings = ctx.executor().schedule(() -> {
            ctx.writeAndFlush(Envelopes.ping(clock.millis()), ctx.voidPromise());
            if (pings != null) { // not stopped by what the write set off
                next(ctx);
            }
        }, delayMillis(clock.millis(), intervalMillis), TimeUnit.MILLISECONDS);
    }

    /**
     * From {@code nowMillis}, how long until the next ping: the interval, shortened to the last
     * point of the grid ({@value #GRID_MILLIS} ms of the clock) at or before it; an interval under
     * {@value #ALIGNED_FROM_MILLIS} ms is kept as it is.
     */
    static long delayMillis(long nowMillis, long intervalMillis) {
        if (intervalMillis < ALIGNED_FROM_MILLIS) {
            return intervalMillis;
        }
        return intervalMillis - Math.floorMod(nowMillis + intervalMillis, GRID_MILLIS);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        stop();
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stop();
    }

    private void stop() {
        if (pings != null) {
            pings.cancel(false);
            pings = null;
        }
    }
}
