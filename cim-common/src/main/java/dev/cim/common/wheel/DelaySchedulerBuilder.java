package dev.cim.common.wheel;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sets up the ring-buffer {@link DelayScheduler}. Every setting has a default; each setter checks
 * its argument and says what was expected.
 *
 * <pre>{@code
 * DelayScheduler wheel = DelayScheduler.builder()
 *         .tick(Duration.ofMillis(10))   // slot width; the resolution is tick / slots
 *         .slots(512)                    // buckets per ring, a power of two
 *         .workerThreads(2)              // threads that run the jobs
 *         .build();
 * }</pre>
 *
 * <p>A built scheduler owns one ticker thread and, unless {@link #executor(Executor)} was given, a
 * pool of worker threads; {@link DelayScheduler#close()} or a stop ends them. None of them exists
 * before the first {@code schedule}: the ticker starts then, and a worker when a job first falls
 * due, so an application that never schedules a job pays no thread. Make one scheduler per
 * application and share it: like Netty's {@code HashedWheelTimer}, each instance costs a thread.
 */
public final class DelaySchedulerBuilder {

    /** The largest maximum delay: keeps deadline arithmetic in nanoseconds far from overflow. */
    static final Duration MAX_MAX_DELAY = Duration.ofDays(36_500);

    private Duration tick = Duration.ofMillis(10);
    private int slots = 512;
    private int workerThreads = 2;
    private Executor executor;
    private long maxPending;
    private Duration maxDelay = Duration.ofDays(30);
    private Duration shutdownTimeout = Duration.ofSeconds(30);
    private TimeSource timeSource = TimeSource.system();
    private String threadNamePrefix = "cim-wheel";

    DelaySchedulerBuilder() {
    }

    /**
     * The width of a slot of the tick ring: at least 1 ms. Default 10 ms. The wheel never wakes
     * for an empty slot, and cuts the slot that is due into {@code slots} sub-slots, so a job runs
     * at its own deadline, late by less than {@code tick / slots} (rounded down to a power of two
     * of nanoseconds) plus the time its threads take to wake. A burst of new jobs is filed into
     * the wheel within one tick.
     */
    public DelaySchedulerBuilder tick(Duration tick) {
        Objects.requireNonNull(tick, "tick (expected: a Duration of at least 1ms)");
        if (tick.compareTo(Duration.ofMillis(1)) < 0) {
            throw new IllegalArgumentException("tick (expected: at least 1ms): " + tick);
        }
        this.tick = tick;
        return this;
    }

    /** Buckets per ring: a power of two, at least 2. Default 512. */
    public DelaySchedulerBuilder slots(int slots) {
        if (slots < 2 || Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots (expected: a power of two >= 2): " + slots);
        }
        this.slots = slots;
        return this;
    }

    /** Threads in the worker pool that runs jobs: at least 1. Default 2. */
    public DelaySchedulerBuilder workerThreads(int workerThreads) {
        if (workerThreads < 1) {
            throw new IllegalArgumentException("workerThreads (expected: >= 1): " + workerThreads);
        }
        this.workerThreads = workerThreads;
        return this;
    }

    /**
     * Runs jobs on this executor instead of a pool of the scheduler's own; the caller keeps owning
     * it and shuts it down. It should not run jobs on the calling thread, or they delay the ticks.
     */
    public DelaySchedulerBuilder executor(Executor executor) {
        this.executor = Objects.requireNonNull(executor, "executor (expected: the Executor to run jobs on)");
        return this;
    }

    /**
     * The most jobs pending at once; past it {@code schedule} throws
     * {@link java.util.concurrent.RejectedExecutionException}. 0 means no cap. Default 0.
     */
    public DelaySchedulerBuilder maxPending(long maxPending) {
        if (maxPending < 0) {
            throw new IllegalArgumentException("maxPending (expected: >= 0, 0 for no cap): " + maxPending);
        }
        this.maxPending = maxPending;
        return this;
    }

    /** The longest delay accepted: from the tick up to 100 years. Default 30 days. */
    public DelaySchedulerBuilder maxDelay(Duration maxDelay) {
        Objects.requireNonNull(maxDelay, "maxDelay (expected: a Duration from the tick to 100 years)");
        if (maxDelay.compareTo(Duration.ofMillis(1)) < 0 || maxDelay.compareTo(MAX_MAX_DELAY) > 0) {
            throw new IllegalArgumentException("maxDelay (expected: from 1ms to " + MAX_MAX_DELAY + "): " + maxDelay);
        }
        this.maxDelay = maxDelay;
        return this;
    }

    /** How long {@link DelayScheduler#close()} lets pending jobs run: at least 0. Default 30 s. */
    public DelaySchedulerBuilder shutdownTimeout(Duration shutdownTimeout) {
        Objects.requireNonNull(shutdownTimeout, "shutdownTimeout (expected: a Duration >= 0)");
        if (shutdownTimeout.isNegative()) {
            throw new IllegalArgumentException("shutdownTimeout (expected: >= 0): " + shutdownTimeout);
        }
        this.shutdownTimeout = shutdownTimeout;
        return this;
    }

    /** Where time comes from. Default {@link TimeSource#system()}. */
    public DelaySchedulerBuilder timeSource(TimeSource timeSource) {
        this.timeSource = Objects.requireNonNull(timeSource, "timeSource (expected: a TimeSource)");
        return this;
    }

    /** The prefix of the names of the scheduler's threads. Default {@code "cim-wheel"}. */
    public DelaySchedulerBuilder threadNamePrefix(String threadNamePrefix) {
        Objects.requireNonNull(threadNamePrefix, "threadNamePrefix (expected: a thread name prefix)");
        this.threadNamePrefix = threadNamePrefix;
        return this;
    }

    /**
     * Builds the scheduler. Its threads start later, the ticker on the first {@code schedule}.
     *
     * @throws IllegalArgumentException if the maximum delay is shorter than the tick
     */
    public DelayScheduler build() {
        ThreadPoolExecutor ownPool = executor == null ? newWorkerPool() : null;
        return new WheelScheduler(config(), ownPool != null ? ownPool : executor, ownPool,
                named(threadNamePrefix + "-ticker", false));
    }

    /** A scheduler with no threads, advanced by calling {@link WheelScheduler#advance()}; for tests. */
    WheelScheduler buildManual() {
        return new WheelScheduler(config(), executor != null ? executor : Runnable::run, null, null);
    }

    private WheelScheduler.Config config() {
        if (maxDelay.compareTo(tick) < 0) {
            throw new IllegalArgumentException("maxDelay (expected: at least the tick, " + tick + "): " + maxDelay);
        }
        return new WheelScheduler.Config(timeSource, tick.toNanos(), slots, maxDelay.toNanos(), maxPending,
                shutdownTimeout);
    }

    /** Worker threads start one per job handed over until there are {@code workerThreads}: none before. */
    private ThreadPoolExecutor newWorkerPool() {
        return new ThreadPoolExecutor(workerThreads, workerThreads, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), named(threadNamePrefix + "-worker-", true));
    }

    /** Daemon threads, so a forgotten scheduler never keeps a JVM alive. */
    private static ThreadFactory named(String name, boolean numbered) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, numbered ? name + count.incrementAndGet() : name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
