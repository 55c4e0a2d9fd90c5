package dev.cim.common.protocol;

import dev.cim.common.protocol.proto.Envelope;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Writes {@link Envelope}s as frames (laid out by an {@link EnvelopeFraming}: on the chat port the
 * 4-byte length, then the serialized payload; on the web port a WebSocket message), and decides
 * when the socket is written: the frames written to a connection within one pass of its event loop
 * are serialized back to back into one pooled buffer, which is written and flushed once at the end
 * of the pass.
 *
 * <h3>Why one buffer per pass</h3>
 * A chat connection carries many small frames at once: a message's delivery, a receipt, another
 * sender's message, all within microseconds. Written one by one, each frame is a buffer of its own,
 * passed down the pipeline, an entry of the channel's outbound buffer and an element of the write's
 * I/O vector, each allocated, counted and released: in a profile of the closed-loop load that was
 * some 15 to 20 % of the server's samples and of the generator's. Back to back in one buffer, a
 * pass's frames cost one of each. Each frame is serialized straight into the buffer, one pass over
 * the message; the size protobuf computes for the length is memoized. The buffer is on the heap,
 * where protobuf writes into a plain array (into a direct buffer it goes through the
 * {@code ByteBuffer} API, a call per byte or field; serializing that way took a fifth of the
 * server's samples); the transport copies the whole batch into direct memory once.
 *
 * <h3>When the socket is written</h3>
 * A flush does not write at once: it leaves one task for the end of the event loop's pass
 * ({@link SingleThreadIoEventLoop#executeAfterEventLoopIteration}), which writes the buffer and
 * flushes. A pass handles every socket that was ready, then runs the tasks queued meanwhile (among
 * them what other threads hand to this connection: deliveries, receipts), then these end-of-pass
 * tasks; so a connection is written once per pass, after everything the pass had for it. Queued as
 * an ordinary task instead, the flush ran as soon as the queue reached it, before the hand-offs
 * queued behind it, and the server made 0.29 socket writes per message in the closed-loop load
 * against 0.125 this way (0.17 against 0.094 in the generator; {@code perf stat -e
 * syscalls:sys_enter_sendto} over 15 s of each). On an event loop without end-of-pass tasks (not
 * an I/O loop) the flush is an ordinary task. Netty's
 * {@code FlushConsolidationHandler} is not enough for a chat server: it batches the flushes made
 * while <i>this</i> connection reads, and flushes at once those made from elsewhere, and on a chat
 * server most writes come from elsewhere (a message read on one connection is written to another).
 * When the loop is idle, a flush waits for nothing but the rest of its pass: microseconds.
 *
 * <h3>Order and limits</h3>
 * Anything written that is not an Envelope (bytes a handler writes) and a close first write what is
 * buffered, so nothing overtakes it. A buffer that reaches {@value #BATCH_BYTES} bytes is passed on
 * at once (flushed at the end of the pass like the rest), so that the channel's outbound buffer and
 * its water marks see a large pass's output as it grows. A frame whose payload is longer than the
 * peer's decoder accepts fails its write with an {@link EncoderException} caused by a
 * {@link TooLongFrameException} and is not sent, since the peer would only drop the connection. A
 * frame's write promise completes when its buffer is written.
 *
 * <p>One per connection (it keeps state); all methods run on the connection's event loop.
 */
public final class EnvelopeEncoder extends ChannelDuplexHandler {

    /** A buffer this full is passed on without waiting for the end of the pass. */
    static final int BATCH_BYTES = 64 * 1024;
    /** The first capacity of a pass's buffer: a few dozen chat frames, grown if needed. */
    private static final int FIRST_CAPACITY = 4096;

    private final int maxPayloadLength;
    private final EnvelopeFraming framing;
    private ChannelHandlerContext ctx;
    private final Runnable flushTask = this::flushNow;
    private boolean flushPending;
    /** Frames serialized since the buffer was last passed on, or null. */
    private ByteBuf batch;
    /** The promises of those frames that are not void, or null. */
    private List<ChannelPromise> promises;

    /**
     * @param maxPayloadLength the longest payload a frame may carry: what the peer's decoder accepts
     * @param framing          how each Envelope is laid out as a frame
     */
    public EnvelopeEncoder(int maxPayloadLength, EnvelopeFraming framing) {
        if (maxPayloadLength < 1) {
            throw new IllegalArgumentException("maxPayloadLength: " + maxPayloadLength + " (expected: >= 1)");
        }
        this.maxPayloadLength = maxPayloadLength;
        this.framing = Objects.requireNonNull(framing, "framing");
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /**
     * The pipeline is torn down (the channel closed without a close passing here, as when the peer
     * reset it): frames not yet passed on can go nowhere, so their buffer is released and their
     * writes fail, rather than being written to a closed channel.
     */
    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (batch != null) {
            batch.release();
            batch = null;
        }
        if (promises != null) {
            ClosedChannelException closed = new ClosedChannelException();
            promises.forEach(promise -> promise.tryFailure(closed));
            promises = null;
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof Envelope envelope)) {
            passOn();
            ctx.write(msg, promise);
            return;
        }
        if (batch == null) {
            batch = ctx.alloc().heapBuffer(FIRST_CAPACITY);
        }
        int start = batch.writerIndex();
        try {
            framing.append(envelope, batch, maxPayloadLength);
        } catch (IOException | RuntimeException e) {
            batch.writerIndex(start);
            if (start == 0) { // nothing else in it: not passed on empty
                batch.release();
                batch = null;
            }
            promise.setFailure(new EncoderException(e));
            return;
        }
        if (!promise.isVoid()) {
            if (promises == null) {
                promises = new ArrayList<>(4);
            }
            promises.add(promise);
        }
        if (batch.readableBytes() >= BATCH_BYTES) {
            passOn();
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (!flushPending) {
            flushPending = true;
            if (ctx.executor() instanceof SingleThreadIoEventLoop loop) {
                loop.executeAfterEventLoopIteration(flushTask);
            } else {
                ctx.executor().execute(flushTask);
            }
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        // Writability flips when the outbound buffer crosses its water marks; flushing now rather
        // than at the end of the pass lets a writer that waits on it see the buffer drain.
        if (flushPending && !ctx.channel().isWritable()) {
            flushNow();
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        // A close must not overtake frames written before it, such as a closing error.
        flushNow();
        ctx.close(promise);
    }

    /** Writes what this pass has so far and flushes: at the end of the pass, or when it cannot wait. */
    private void flushNow() {
        flushPending = false;
        passOn();
        ctx.flush();
    }

    /** Passes the frames serialized so far on toward the socket, as one buffer. */
    private void passOn() {
        ByteBuf frames = batch;
        if (frames == null) {
            return;
        }
        batch = null;
        List<ChannelPromise> waiting = promises;
        promises = null;
        if (waiting == null) {
            ctx.write(frames, ctx.voidPromise());
            return;
        }
        ChannelPromise written = ctx.newPromise();
        written.addListener(done -> {
            for (ChannelPromise promise : waiting) {
                if (done.isSuccess()) {
                    promise.trySuccess();
                } else {
                    promise.tryFailure(done.cause());
                }
            }
        });
        ctx.write(frames, written);
    }
}
