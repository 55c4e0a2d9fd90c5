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
 */
final class Pinger extends ChannelInboundHandlerAdapter {

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
            pings = ctx.executor().scheduleAtFixedRate(
                    () -> ctx.writeAndFlush(Envelopes.ping(clock.millis()), ctx.voidPromise()),
                    intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
        }
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
