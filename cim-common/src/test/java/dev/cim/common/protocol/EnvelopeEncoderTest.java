package dev.cim.common.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cim.common.protocol.proto.Envelope;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalIoHandler;
import io.netty.channel.local.LocalServerChannel;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The encoder's batching, on a real event loop (in-VM local channels), since its point is what a
 * pass of the loop does: the other end decodes with the same codec.
 */
class EnvelopeEncoderTest {

    /** Counts the buffers and flushes that reach the socket end of the pipeline. */
    private static final class SocketEnd extends ChannelOutboundHandlerAdapter {
        final AtomicInteger buffers = new AtomicInteger();
        final AtomicInteger flushes = new AtomicInteger();
        final List<Integer> sizes = new CopyOnWriteArrayList<>();

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            buffers.incrementAndGet();
            sizes.add(((ByteBuf) msg).readableBytes());
            ctx.write(msg, promise);
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            flushes.incrementAndGet();
            ctx.flush();
        }
    }

    /** An I/O event loop, as the programs use: one that runs end-of-pass tasks. */
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, LocalIoHandler.newFactory());
    private final SocketEnd socket = new SocketEnd();
    private final List<Long> received = new CopyOnWriteArrayList<>();
    private Channel server;
    private Channel client;

    @BeforeEach
    void connect() throws InterruptedException {
        LocalAddress address = new LocalAddress("encoder-" + System.nanoTime());
        server = new ServerBootstrap().group(group).channel(LocalServerChannel.class)
                .childHandler(new ChannelInitializer<LocalChannel>() {
                    @Override
                    protected void initChannel(LocalChannel ch) {
                        new CimProtocolCodec().install(ch.pipeline());
                        ch.pipeline().addLast(new SimpleChannelInboundHandler<Envelope>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, Envelope envelope) {
                                received.add(envelope.getAck().getReceived());
                            }
                        });
                    }
                })
                .bind(address).sync().channel();
        client = new Bootstrap().group(group).channel(LocalChannel.class)
                .handler(new ChannelInitializer<LocalChannel>() {
                    @Override
                    protected void initChannel(LocalChannel ch) {
                        ch.pipeline().addLast(socket);
                        new CimProtocolCodec().install(ch.pipeline());
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
    void framesFlushedWithinOnePass_leaveInOneBufferAndOneFlush_afterThePass() throws Exception {
        int[] duringThePass = client.eventLoop().submit(() -> {
            client.writeAndFlush(Envelopes.ack(1));
            client.writeAndFlush(Envelopes.ack(2));
            client.writeAndFlush(Envelopes.ack(3));
            return new int[] {socket.buffers.get(), socket.flushes.get()};
        }).get(5, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 3);
        assertThat(duringThePass).as("buffers and flushes before the pass ended").containsExactly(0, 0);
        assertThat(received).containsExactly(1L, 2L, 3L);
        assertThat(socket.buffers.get()).isEqualTo(1);
        assertThat(socket.flushes.get()).isEqualTo(1);
    }


    @Test
    void framesHandedOverByTasksQueuedAfterTheFirstFlush_leaveWithItInOneFlush() throws Exception {
        // What another connection's read hands over reaches the loop as a task, queued behind the
        // flush of what this pass wrote first: the socket is written once, after all of them.
        client.eventLoop().submit(() -> {
            client.writeAndFlush(Envelopes.ack(1));
            client.eventLoop().execute(() -> client.writeAndFlush(Envelopes.ack(2)));
            client.eventLoop().execute(() -> client.writeAndFlush(Envelopes.ack(3)));
        }).get(5, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 3);
        assertThat(received).containsExactly(1L, 2L, 3L);
        assertThat(socket.buffers.get()).isEqualTo(1);
        assertThat(socket.flushes.get()).isEqualTo(1);
    }
    @Test
    void aFlushFromAnotherThread_isWrittenWithoutAnyFurtherActivity_andCompletesItsPromise() throws Exception {
        ChannelFuture write = client.writeAndFlush(Envelopes.ack(9));

        assertThat(write.await(5, TimeUnit.SECONDS)).as("written within 5 s").isTrue();
        assertThat(write.isSuccess()).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> received.equals(List.of(9L)));
    }

    @Test
    void aWriteWithoutFlush_staysBuffered() throws Exception {
        ChannelFuture write = client.write(Envelopes.ack(1));
        // A whole pass of the loop after the write: nothing was asked to flush, so nothing is written.
        client.eventLoop().submit(() -> { }).get(5, TimeUnit.SECONDS);

        assertThat(write.isDone()).isFalse();
        assertThat(socket.buffers.get()).isZero();
    }

    @Test
    void close_writesWhatWasWrittenBeforeIt() throws Exception {
        ChannelFuture write = client.eventLoop().submit(() -> {
            ChannelFuture bye = client.writeAndFlush(Envelopes.ack(5));
            client.close();
            return bye;
        }).get(5, TimeUnit.SECONDS);

        assertThat(write.await(5, TimeUnit.SECONDS)).as("done within 5 s").isTrue();
        assertThat(write.isSuccess()).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> received.equals(List.of(5L)));
    }

    @Test
    void framesNotPassedOnWhenThePipelineIsTornDown_areReleased_andTheirWritesFail() throws Exception {
        ChannelFuture write = client.eventLoop().submit(() -> {
            ChannelFuture pending = client.write(Envelopes.ack(1)); // never flushed
            client.pipeline().remove(CimProtocolCodec.ENVELOPE_ENCODER);
            return pending;
        }).get(5, TimeUnit.SECONDS);

        assertThat(write.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(write.cause()).isInstanceOf(ClosedChannelException.class);
        assertThat(socket.buffers.get()).isZero();
    }

    @Test
    void aPassLongerThanOneBatch_leavesInBuffersOfAtMostABatch_inOrder() throws Exception {
        int frame = CimProtocolCodec.LENGTH_FIELD_LENGTH + Envelopes.ack(1_000_000).getSerializedSize();
        int frames = 3 * EnvelopeEncoder.BATCH_BYTES / frame;
        client.eventLoop().submit(() -> {
            for (long n = 1_000_000; n < 1_000_000 + frames; n++) {
                client.write(Envelopes.ack(n), client.voidPromise());
            }
            client.flush();
        }).get(5, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == frames);
        assertThat(received).containsExactlyElementsOf(LongStream.range(1_000_000, 1_000_000 + frames).boxed().toList());
        // Passed on each time a buffer reached the batch size (and flushed early once the channel's
        // outbound buffer went over its high water mark).
        assertThat(socket.sizes).hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(size -> assertThat(size).isLessThan(EnvelopeEncoder.BATCH_BYTES + frame));
    }

    @Test
    void bytesWrittenAfterFrames_doNotOvertakeThem() throws Exception {
        Envelope ack = Envelopes.ack(4);
        ByteBuf raw = client.alloc().buffer().writeInt(ack.getSerializedSize()).writeBytes(ack.toByteArray());
        client.eventLoop().submit(() -> {
            client.write(Envelopes.ack(3), client.voidPromise());
            client.writeAndFlush(raw, client.voidPromise());
        }).get(5, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 2);
        assertThat(received).containsExactly(3L, 4L);
    }
}
