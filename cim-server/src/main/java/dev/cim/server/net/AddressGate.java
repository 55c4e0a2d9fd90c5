package dev.cim.server.net;

import dev.cim.common.protocol.proto.ErrorReply;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Caps the connections one IP address may hold open, and how many of them may be not logged in
 * yet, so that one host cannot take every socket, or fill the server with unauthenticated
 * connections. A connection over a cap is told why and closed as soon as it is accepted.
 *
 * <p>One per connection, first in its pipeline; the {@link Counts} are shared by all.
 */
final class AddressGate extends ChannelInboundHandlerAdapter {

    static final String NAME = "address";

    /** The open and not-yet-logged-in connections of every address. Thread-safe. */
    static final class Counts {

        private record Count(int open, int unauthenticated) {
        }

        private final int maxOpen;
        private final int maxUnauthenticated;
        private final ConcurrentHashMap<InetAddress, Count> counts = new ConcurrentHashMap<>();

        Counts(int maxOpen, int maxUnauthenticated) {
            if (maxOpen < 1 || maxUnauthenticated < 1) {
                throw new IllegalArgumentException("connections per address " + maxOpen + ", unauthenticated "
                        + maxUnauthenticated + " (expected: both >= 1)");
            }
            this.maxOpen = maxOpen;
            this.maxUnauthenticated = maxUnauthenticated;
        }

        /** Counts a new connection from {@code address}, unless it is over a cap: then false. */
        boolean admit(InetAddress address) {
            boolean[] admitted = {false};
            counts.compute(address, (a, c) -> {
                Count count = c == null ? new Count(0, 0) : c;
                if (count.open() >= maxOpen || count.unauthenticated() >= maxUnauthenticated) {
                    return c;
                }
                admitted[0] = true;
                return new Count(count.open() + 1, count.unauthenticated() + 1);
            });
            return admitted[0];
        }

        void loggedIn(InetAddress address) {
            counts.computeIfPresent(address, (a, c) -> new Count(c.open(), c.unauthenticated() - 1));
        }

        void closed(InetAddress address, boolean loggedIn) {
            counts.computeIfPresent(address, (a, c) -> {
                Count count = new Count(c.open() - 1, c.unauthenticated() - (loggedIn ? 0 : 1));
                return count.open() == 0 ? null : count;
            });
        }

        String limits() {
            return "at most " + maxOpen + " connections per address, " + maxUnauthenticated + " of them not logged in";
        }

        /** Connections not logged in yet, from every address. */
        int unauthenticated() {
            return counts.values().stream().mapToInt(Count::unauthenticated).sum();
        }
    }

    private final Counts counts;
    private InetAddress address;
    private boolean admitted;
    private boolean loggedIn;

    AddressGate(Counts counts) {
        this.counts = counts;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().remoteAddress() instanceof InetSocketAddress remote && remote.getAddress() != null) {
            address = remote.getAddress();
            admitted = counts.admit(address);
            if (!admitted) {
                NettyConnection.closeWithError(ctx.channel(), ErrorReply.Code.RATE_LIMITED, "too many connections from "
                        + address.getHostAddress() + " (expected: " + counts.limits() + ")");
                return;
            }
        }
        super.channelActive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event == LoggedIn.INSTANCE && admitted && !loggedIn) {
            loggedIn = true;
            counts.loggedIn(address);
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (admitted) {
            admitted = false;
            counts.closed(address, loggedIn);
        }
        super.channelInactive(ctx);
    }
}
