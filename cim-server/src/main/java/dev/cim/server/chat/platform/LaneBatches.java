package dev.cim.server.chat.platform;

import dev.cim.common.wheel.DelayScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Store work gathered per lane and done in batches: one round trip to the store serves every item
 * queued on a lane since its last batch, so the rate is no longer one lane's round trips a second.
 *
 * <p>Order is as if each item were its own lane task: an item added before some task is handed to
 * the same lane is done before that task runs (a batch task is handed over when the first item
 * arrives, or is already waiting; a running batch takes what arrives meanwhile, or the next does).
 * A batch takes everything queued, so nothing is left behind a task handed over later; what one
 * lane may hold is bounded by what its senders may have unanswered.
 *
 * <h3>Lingering</h3>
 * Work that nobody waits for (the history written behind the delivery) may linger: a lane's batch
 * is then handed over a while after its first item (on the node's wheel), gathering what comes
 * meanwhile, like a Kafka producer's {@code linger.ms}. At low rates items otherwise come one at a
 * time, each a round trip of its own and a wake-up of its lane; under load batches fill either way.
 * The order above then holds among the items only, not against other tasks of the lane. A wheel that
 * is stopping hands the batch over at once; lanes that are closed see it done on the wheel's thread.
 *
 * @param <T> an item of work
 */
public final class LaneBatches<T> {

    private static final Logger log = LoggerFactory.getLogger(LaneBatches.class);

    /** Items sent to the store at once, at most; a batch task does as many rounds as it finds work. */
    static final int ROUND = 512;

    private final UserLanes lanes;
    private final Consumer<List<T>> work;
    private final DelayScheduler wheel;
    private final Duration linger;
    private final Queue<T>[] queues;
    private final AtomicBoolean[] scheduled;

    /**
     * @param work does one round of items, in order, on their lane; it handles its own failures
     */
    public LaneBatches(UserLanes lanes, Consumer<List<T>> work) {
        this(lanes, work, null, Duration.ZERO);
    }

    /**
     * Batches that linger: each is handed to its lane {@code linger} after its first item.
     *
     * @param wheel  where the wait is kept; null only without a linger
     * @param linger zero hands a batch over at once
     */
    @SuppressWarnings("unchecked")
    public LaneBatches(UserLanes lanes, Consumer<List<T>> work, DelayScheduler wheel, Duration linger) {
        if (linger.isNegative() || (wheel == null && !linger.isZero())) {
            throw new IllegalArgumentException("linger: " + linger + " (expected: zero, or positive with a wheel)");
        }
        this.lanes = lanes;
        this.work = work;
        this.wheel = wheel;
        this.linger = linger;
        int count = lanes.count();
        queues = new Queue[count];
        scheduled = new AtomicBoolean[count];
        for (int i = 0; i < count; i++) {
            queues[i] = new ConcurrentLinkedQueue<>();
            scheduled[i] = new AtomicBoolean();
        }
    }

    /** Queues {@code item} for {@code user}'s lane. Any thread. */
    public void add(String user, T item) {
        int lane = lanes.index(user);
        queues[lane].add(item);
        if (scheduled[lane].compareAndSet(false, true)) {
            if (linger.isZero()) {
                lanes.get(lane).execute(() -> drain(lane));
            } else {
                later(lane);
            }
        }
    }

    private void later(int lane) {
        try {
            wheel.schedule(() -> handOver(lane), linger);
        } catch (RejectedExecutionException stopping) {
            handOver(lane);
        }
    }

    private void handOver(int lane) {
        try {
            lanes.get(lane).execute(() -> drain(lane));
        } catch (RejectedExecutionException closed) {
            drain(lane);
        }
    }

    private void drain(int lane) {
        scheduled[lane].set(false);
        Queue<T> queue = queues[lane];
        while (!queue.isEmpty()) {
            List<T> round = new ArrayList<>(Math.min(ROUND, 64));
            for (T item; round.size() < ROUND && (item = queue.poll()) != null; ) {
                round.add(item);
            }
            try {
                work.accept(round);
            } catch (RuntimeException e) {
                log.error("A batch of {} items of store work failed: {}", round.size(), e.toString());
            }
        }
    }
}
