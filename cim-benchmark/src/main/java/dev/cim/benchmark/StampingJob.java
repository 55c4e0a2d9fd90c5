package dev.cim.benchmark;

import java.util.concurrent.CountDownLatch;

/** A lateness job: writes {@link System#nanoTime()} into its slot when it runs, then counts down. */
final class StampingJob extends BenchJob {

    private final int index;
    private final long[] ranAt;
    private final CountDownLatch done;

    StampingJob(int index, long[] ranAt, CountDownLatch done) {
        this.index = index;
        this.ranAt = ranAt;
        this.done = done;
    }

    @Override
    public void run() {
        ranAt[index] = System.nanoTime();
        done.countDown(); // publishes the stamp to the thread that awaits
    }
}
