package dev.cim.benchmark;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A zero-delay job the harness waits for; see {@link TimerUnderTest#awaitSettled()}. */
final class MarkerJob extends BenchJob {

    private final CountDownLatch ran = new CountDownLatch(1);

    @Override
    public void run() {
        ran.countDown();
    }

    boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        return ran.await(timeout, unit);
    }
}
