package dev.cim.loadgen.peer;

import io.netty.channel.DefaultEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The loops that pace a peer's users in a paced run ({@code ChatUser.pacer()}): Netty
 * {@code DefaultEventLoop}s, as many as the cim clients' event loops (one per {@code --io-threads}),
 * handed out in turn (user {@code i} on loop {@code i mod count}), so that a peer's users are paced
 * as cim's are on their connections' loops. A peer's client library runs its own threads for its
 * sockets, so these loops do nothing but pace.
 */
public final class PacerLoops implements AutoCloseable {

    private final DefaultEventLoopGroup loops;

    /**
     * @param name  the threads' name prefix, e.g. "loadgen-mqtt-pacer"
     * @param count how many loops
     */
    public PacerLoops(String name, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("pacers: " + count + " (expected: >= 1)");
        }
        this.loops = new DefaultEventLoopGroup(count, new DefaultThreadFactory(name, true));
    }

    /** The loop for the next user. */
    public ScheduledExecutorService next() {
        return loops.next();
    }

    public int count() {
        return loops.executorCount();
    }

    /** Ends the loops, without waiting for them. */
    @Override
    public void close() {
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
