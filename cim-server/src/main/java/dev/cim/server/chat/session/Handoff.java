package dev.cim.server.chat.session;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Where deliveries reach a session from any thread, and the one task that drains them on the
 * session's owner thread: everything queued since the last drain is taken by one task, so a burst
 * costs one hand-off, not one each. {@link Answers} wake the same task.
 *
 * <p>Many threads add, only the owner takes: a multi-producer single-consumer queue
 * ({@link LazyMpscQueue}).
 */
final class Handoff {

    private final LazyMpscQueue<Delivery> incoming = new LazyMpscQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Executor owner;
    private final Runnable drain;

    /**
     * @param owner the session's owner thread
     * @param drain what runs there once for everything handed over since it last ran
     */
    Handoff(Executor owner, Runnable drain) {
        this.owner = owner;
        this.drain = drain;
    }

    /** Any thread: queues {@code delivery} and wakes the drain. */
    void add(Delivery delivery) {
        incoming.add(delivery);
        wake();
    }

    /** Any thread: makes sure a drain runs after this call. */
    void wake() {
        if (scheduled.compareAndSet(false, true)) {
            owner.execute(drain);
        }
    }

    /** Owner thread, first thing in a drain: what is handed over from now on wakes another. */
    void draining() {
        scheduled.set(false);
    }

    /** Owner thread: the oldest delivery handed over, or null. */
    Delivery poll() {
        return incoming.poll();
    }
}
