package dev.cim.server.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The Redis connections' pipeline as {@link RedisFlushes} leaves it, on an {@link EmbeddedChannel}. */
class RedisFlushesTest {

    /**
     * Stands for the socket: counts the writes and the flushes that reach it, and keeps them there
     * (the embedded channel's own end would run the loop's pending tasks at every write).
     */
    private static final class Flushes extends ChannelOutboundHandlerAdapter {
        int count;
        int written;

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            written++;
            ReferenceCountUtil.release(msg);
            promise.setSuccess();
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            count++;
        }
    }

    private static NettyCustomizer customizer() {
        ClientResources.Builder builder = ClientResources.builder();
        new RedisFlushes().customize(builder);
        ClientResources resources = builder.build();
        try {
            return resources.nettyCustomizer();
        } finally {
            resources.shutdown();
        }
    }

    /** A channel as Lettuce's would be once initialized, with the flushes counted at the socket's end. */
    private static EmbeddedChannel channel(Flushes flushes) {
        EmbeddedChannel channel = new EmbeddedChannel();
        customizer().afterChannelInitialized(channel);
        channel.pipeline().addFirst("socket", flushes);
        return channel;
    }

    /**
     * As Lettuce writes a command: through the pipeline (the embedded channel's own
     * {@code writeAndFlush} would run the loop's pending tasks after it).
     */
    private static void write(EmbeddedChannel channel, Object command) {
        channel.pipeline().writeAndFlush(command);
    }

    /** {@code count} commands, one after the other, as {@link #write} writes each. */
    private static void writeCommands(EmbeddedChannel channel, int count) {
        for (int i = 0; i < count; i++) {
            write(channel, Unpooled.copiedBuffer("SET k" + i + " v\r\n", StandardCharsets.US_ASCII));
        }
    }

    @Test
    void commandsWrittenInOneTurnOfTheLoop_leaveInOneWrite_afterThem() {
        Flushes flushes = new Flushes();
        EmbeddedChannel channel = channel(flushes);
        assertThat(channel.pipeline().names()).as("the handler sits right at the socket's end")
                .startsWith("socket", RedisFlushes.NAME);

        writeCommands(channel, 100);
        assertThat(flushes.count).as("nothing flushed while the commands are written").isZero();
        channel.runPendingTasks();

        assertThat(flushes.count).isEqualTo(1);
        assertThat(flushes.written).isEqualTo(100);
        channel.finishAndReleaseAll();
    }

    @Test
    void aLoneCommand_leavesInTheSameTurn() {
        Flushes flushes = new Flushes();
        EmbeddedChannel channel = channel(flushes);

        write(channel, Unpooled.copiedBuffer("PING\r\n", StandardCharsets.US_ASCII));
        channel.runPendingTasks();

        assertThat(flushes.count).isEqualTo(1);
        assertThat(flushes.written).isEqualTo(1);
        channel.finishAndReleaseAll();
    }

    @Test
    void aLongBatch_isWrittenInPiecesOfBoundedSize() {
        Flushes flushes = new Flushes();
        EmbeddedChannel channel = channel(flushes);

        writeCommands(channel, 1000);
        channel.runPendingTasks();

        assertThat(flushes.count).as("one every 256 commands, and one for the rest").isEqualTo(4);
        assertThat(flushes.written).isEqualTo(1000);
        channel.finishAndReleaseAll();
    }
}
