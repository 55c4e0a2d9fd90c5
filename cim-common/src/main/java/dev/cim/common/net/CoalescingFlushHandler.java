package dev.cim.common.net;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/**
 * Turns every flush of a connection within one pass of its event loop into one flush at the end of
 * that pass, so the frames written meanwhile (a receipt and the chats of several senders, say) leave
 * in one system call and, on loopback, often one TCP segment. Callers keep calling
 * {@code writeAndFlush}; this handler, placed first in the pipeline so that it sees every flush,
 * only decides when the socket is written.
 *
 * <h3>Why not Netty's FlushConsolidationHandler</h3>
 * That one batches the flushes made while <i>this</i> connection reads, and flushes at once those made
 * from elsewhere. On a chat server most writes come from elsewhere: a message read on one
 * connection is written to another. Here every flush, wherever it comes from, is deferred to a task
 * queued on the connection's own event loop. Netty runs the tasks of a pass after it has handled
 * every socket that was ready, so the task runs once all of that pass's reads have been routed, and
 * writes from other threads (which reach the loop as tasks too) queued before it are included.
 *
 * <h3>Cost</h3>
 * When the loop is idle, the flush waits for nothing but the rest of its pass: microseconds. Under
 * load it waits for the other ready sockets of the pass, which is the batching. At most one task
 * per connection per pass; none while a flush is already pending.
 *
 * <p>One per connection (it keeps state); all methods run on the connection's event loop.
 */
public final class CoalescingFlushHandler extends ChannelDuplexHandler {

    private boolean flushPending;
    private Runnable flushTask;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        flushTask = () -> {
            flushPending = false;
            ctx.flush();
        };
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (!flushPending) {
            flushPending = true;
            ctx.channel().eventLoop().execute(flushTask);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        // Writability flips when the outbound buffer crosses its water marks; flushing now rather
        // than at the end of the pass lets a writer that waits on it see the buffer drain.
        if (flushPending && !ctx.channel().isWritable()) {
            flushPending = false;
            ctx.flush();
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
        // A close must not overtake frames written before it, such as a shutdown notice.
        if (flushPending) {
            flushPending = false;
            ctx.flush();
        }
        super.close(ctx, promise);
    }
}
