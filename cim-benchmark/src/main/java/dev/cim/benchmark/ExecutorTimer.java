package dev.cim.benchmark;

import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code ScheduledThreadPoolExecutor(1)} with {@code setRemoveOnCancelPolicy(true)}: by default it
 * would keep cancelled tasks in its heap until their due time. The caller does all the scheduling
 * work (a heap insert under a lock); its one thread only runs due tasks.
 */
final class ExecutorTimer implements TimerUnderTest {

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final ScheduledThreadPoolExecutor executor;
    private final Thread worker;

    ExecutorTimer() {
        RecordingThreadFactory threads = new RecordingThreadFactory("bench-stpe-" + INSTANCES.incrementAndGet());
        this.executor = new ScheduledThreadPoolExecutor(1, threads);
        executor.setRemoveOnCancelPolicy(true);
        executor.prestartCoreThread();
        this.worker = threads.thread();
    }

    @Override
    public String name() {
        return "STPE";
    }

    @Override
    public Object schedule(BenchJob job, long delay, TimeUnit unit) {
        return executor.schedule(job, delay, unit);
    }

    @Override
    public boolean cancel(Object handle) {
        return ((Future<?>) handle).cancel(false);
    }

    @Override
    public Thread timerThread() {
        return worker;
    }

    @Override
    public long tickNanos() {
        return 0;
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
