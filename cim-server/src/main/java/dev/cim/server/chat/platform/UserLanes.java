package dev.cim.server.chat.platform;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A lane for each user: the work on a user's stored state (their inbox, their presence) runs on one
 * thread, in the order it was handed over. Stores into an inbox, the pages a logging-in session
 * reads from it, and the removal of what was acknowledged never overtake one another, which is what
 * keeps a user's messages in order across the inbox and the live path. Lanes are threads that may
 * block on the store, so they never run on the I/O threads; users share a fixed number of them.
 */
public final class UserLanes implements AutoCloseable {

    private final ExecutorService[] lanes;

    /**
     * @param count threads, at least 1 (rounded up to a power of two)
     */
    public UserLanes(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("lanes: " + count + " (expected: >= 1)");
        }
        int size = Integer.highestOneBit(count - 1) << 1;
        lanes = new ExecutorService[Math.max(1, size)];
        AtomicInteger index = new AtomicInteger();
        ThreadFactory threads = r -> {
            Thread t = new Thread(r, "cim-lane-" + index.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
        for (int i = 0; i < lanes.length; i++) {
            lanes[i] = Executors.newSingleThreadExecutor(threads);
        }
    }

    /** The lane of {@code user}. */
    public ExecutorService of(String user) {
        return lanes[index(user)];
    }

    /** The number of {@code user}'s lane, from 0 to {@link #count()} - 1. */
    int index(String user) {
        int h = user.hashCode();
        return (h ^ (h >>> 16)) & (lanes.length - 1);
    }

    /** How many lanes there are. */
    int count() {
        return lanes.length;
    }

    /** Lane {@code index}. */
    ExecutorService get(int index) {
        return lanes[index];
    }

    /** Stops the lanes, letting what they hold run for up to {@code timeoutMillis}. */
    public void close(long timeoutMillis) {
        for (ExecutorService lane : lanes) {
            lane.shutdown();
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        for (ExecutorService lane : lanes) {
            try {
                lane.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        close(10_000);
    }
}
