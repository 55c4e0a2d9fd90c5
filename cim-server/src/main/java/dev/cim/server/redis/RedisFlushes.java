package dev.cim.server.redis;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.handler.flush.FlushConsolidationHandler;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;

/**
 * One socket write for the commands written to a Redis connection together, rather than one each.
 * Lettuce flushes after every command, and a command sent from a thread other than the connection's
 * event loop is a task of its own there: a batch of a thousand commands ({@link RedisBatch}: the
 * watermarks of every origin that moved, once a second) left in a thousand writes, each a system
 * call in the server and a read in Redis. Netty's {@link FlushConsolidationHandler}, first in each
 * Redis connection's pipeline, turns the flushes of the commands already queued into one write after
 * them ({@value FlushConsolidationHandler#DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES} commands at most), and
 * those written while answers are read into one at the end of the read. A lone command still leaves
 * in the same turn of the event loop, behind only the tasks queued before it.
 */
public final class RedisFlushes implements ClientResourcesBuilderCustomizer {

    /** The handler's name in a Redis connection's pipeline. */
    public static final String NAME = "cim-flushes";

    @Override
    public void customize(ClientResources.Builder builder) {
        builder.nettyCustomizer(new NettyCustomizer() {
            @Override
            public void afterChannelInitialized(Channel channel) {
                channel.pipeline().addFirst(NAME, new FlushConsolidationHandler(
                        FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
            }
        });
    }
}
