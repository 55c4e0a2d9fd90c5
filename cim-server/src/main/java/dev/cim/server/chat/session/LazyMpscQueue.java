package dev.cim.server.chat.session;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Queue;
import org.jctools.queues.MpscUnboundedArrayQueue;

/**
 * A multi-producer single-consumer queue made at the first {@link #add}: many threads add, only the
 * session's owner thread takes. A JCTools queue's take is a plain read and its add makes no node per
 * element (a {@code ConcurrentLinkedQueue}'s compare-and-sets and nodes took 12 % of the I/O
 * threads' samples in a profile of the closed-loop load), but it is padded against false sharing
 * and links arrays of {@link #CHUNK} references: some 720 bytes before it holds anything. A session
 * has two ({@link Handoff}, {@link Answers}), and a connection that only stays logged in never uses
 * them: made eagerly they were a quarter of an idle connection's heap (1.45 of 5.76 KB, 19,000
 * connections held on one node).
 *
 * <p>Once made, the queue stays: a session that had traffic is likely to have more.
 *
 * @param <E> the elements
 */
final class LazyMpscQueue<E> {

    /** Elements per link of the queue: how often a busy session links a new array. */
    private static final int CHUNK = 32;

    private static final VarHandle QUEUE;

    static {
        try {
            QUEUE = MethodHandles.lookup().findVarHandle(LazyMpscQueue.class, "queue", Queue.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile Queue<E> queue;

    /** Any thread. */
    void add(E element) {
        Queue<E> q = queue;
        if (q == null) {
            q = create();
        }
        q.add(element);
    }

    /** Owner thread: the oldest element, or null. */
    E poll() {
        Queue<E> q = queue;
        return q == null ? null : q.poll();
    }

    /** Owner thread: drops everything queued. */
    void clear() {
        Queue<E> q = queue;
        if (q != null) {
            q.clear();
        }
    }

    /** The queue, made by whichever thread gets here first. */
    @SuppressWarnings("unchecked")
    private Queue<E> create() {
        Queue<E> made = new MpscUnboundedArrayQueue<>(CHUNK);
        Queue<E> witness = (Queue<E>) QUEUE.compareAndExchange(this, null, made);
        return witness == null ? made : witness;
    }
}
