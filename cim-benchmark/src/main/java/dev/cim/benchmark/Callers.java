package dev.cim.benchmark;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs the calling side of a measurement on fresh threads that start together: the index range
 * {@code [0, n)} is split into equal contiguous slices, one per thread.
 */
final class Callers {

    /** The work of one thread: indices {@code from} (inclusive) to {@code to} (exclusive). */
    @FunctionalInterface
    interface Slice {
        void run(int from, int to) throws Exception;
    }

    private Callers() {
    }

    /**
     * Runs {@code slice} on {@code threads} threads, calling {@code atStart} once just before they
     * are released together, and returns the sum of the CPU time the threads spent in their slices.
     */
    static long run(int threads, int n, Slice slice, Runnable atStart) throws InterruptedException {
        CyclicBarrier start = new CyclicBarrier(threads, atStart);
        AtomicLong cpu = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int from = (int) ((long) n * t / threads);
            int to = (int) ((long) n * (t + 1) / threads);
            workers[t] = new Thread(() -> {
                try {
                    start.await();
                    long cpu0 = CpuClock.currentThreadCpuNanos();
                    slice.run(from, to);
                    cpu.addAndGet(CpuClock.currentThreadCpuNanos() - cpu0);
                } catch (InterruptedException | BrokenBarrierException e) {
                    failure.compareAndSet(null, e);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    start.reset();
                }
            }, "bench-caller-" + t);
            workers[t].start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a calling thread failed", failure.get());
        }
        return cpu.get();
    }
}
