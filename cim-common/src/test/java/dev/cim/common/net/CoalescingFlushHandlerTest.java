package dev.cim.common.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalServerChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** On a real event loop (in-VM local channels), since the handler's point is what a loop pass does. */
class CoalescingFlushHandlerTest {

    /** Counts the flushes that reach the socket end of the pipeline. */
    private static final class FlushCounter extends ChannelOutboundHandlerAdapter {
        final AtomicInteger flushes = new AtomicInteger();

        @Override
        public void flush(ChannelHandlerContext ctx) {
            flushes.incrementAndGet();
            ctx.flush();
        }
    }

    private final EventLoopGroup group = new DefaultEventLoopGroup(1);
    private final FlushCounter counter = new FlushCounter();
    private final List<String> received = new CopyOnWriteArrayList<>();
    private Channel server;
    private Channel client;

    @BeforeEach
    void connect() throws InterruptedException {
        LocalAddress address = new LocalAddress("coalescing-" + System.nanoTime());
        server = new ServerBootstrap().group(group).channel(LocalServerChannel.class)
                .childHandler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ByteBuf buf = (ByteBuf) msg;
                        received.add(buf.toString(StandardCharsets.US_ASCII));
                        buf.release();
                    }
                })
                .bind(address).sync().channel();
        client = new Bootstrap().group(group).channel(LocalChannel.class)
                .handler(new ChannelInitializer<LocalChannel>() {
                    @Override
                    protected void initChannel(LocalChannel ch) {
                        ch.pipeline().addLast(counter, new CoalescingFlushHandler());
                    }
                })
                .connect(address).sync().channel();
    }

    @AfterEach
    void close() {
        client.close().syncUninterruptibly();
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void writesFlushedWithinOnePass_leaveInOneFlushAfterIt() throws Exception {
        int flushesDuringThePass = client.eventLoop().submit(() -> {
            client.writeAndFlush(text("a"));
            client.writeAndFlush(text("b"));
            client.writeAndFlush(text("c"));
            return counter.flushes.get();
        }).get(5, TimeUnit.SECONDS);
        ChannelFuture last = client.writeAndFlush(text("d")); // from this thread: a task queued after the flush

        assertThat(last.await(5, TimeUnit.SECONDS)).as("written within 5 s").isTrue();
        assertThat(flushesDuringThePass).isZero();
        assertThat(counter.flushes.get()).isBetween(1, 2);
        assertThat(String.join("", received)).startsWith("abc");
    }

    @Test
    void aFlushFromAnotherThread_isWrittenWithoutAnyFurtherActivity() throws Exception {
        ChannelFuture write = client.writeAndFlush(text("hello"));

        assertThat(write.await(5, TimeUnit.SECONDS)).as("written within 5 s").isTrue();
        assertThat(write.isSuccess()).isTrue();
        assertThat(counter.flushes.get()).isEqualTo(1);
    }

    @Test
    void close_flushesWhatWasWrittenBeforeIt() throws Exception {
        ChannelFuture write = client.eventLoop().submit(() -> {
            ChannelFuture bye = client.writeAndFlush(text("bye"));
            client.close();
            return bye;
        }).get(5, TimeUnit.SECONDS);

        assertThat(write.await(5, TimeUnit.SECONDS)).as("done within 5 s").isTrue();
        assertThat(write.isSuccess()).isTrue();
    }

    @Test
    void aWriteWithoutFlush_staysBuffered() throws Exception {
        ChannelFuture write = client.write(text("a"));
        // A whole pass of the loop after the write: nothing was asked to flush, so nothing is written.
        client.eventLoop().submit(() -> { }).get(5, TimeUnit.SECONDS);

        assertThat(write.isDone()).isFalse();
        assertThat(counter.flushes.get()).isZero();
    }

    private static ByteBuf text(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.US_ASCII);
    }
}
