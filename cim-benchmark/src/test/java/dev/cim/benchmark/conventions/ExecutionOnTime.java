package dev.cim.benchmark.conventions;

import io.netty.util.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Netty's {@code testExecutionOnTime} scenario: 100,000 timeouts of 125 ms scheduled back to back on
 * a timer with a 200 ms tick, each reporting how long after its scheduling it ran. The unit test
 * checks that none ran early; the timing test, run apart, that each ran within twice the tick and
 * the delay.
 */
final class ExecutionOnTime {

    static final int TICK = 200;
    static final int TIMEOUT = 125;
    static final int TIMEOUTS = 100_000;
    /** How long to wait for the next one to run before giving up on it: far beyond any bound. */
    private static final long GIVE_UP_SECONDS = 30;

    private ExecutionOnTime() {
    }

    /**
     * Schedules the timeouts on {@code timer} and returns, in the order they ran, how many
     * milliseconds after its scheduling each one ran.
     *
     * @throws AssertionError if one has not run {@value #GIVE_UP_SECONDS} s after the one before
     */
    static List<Long> run(Timer timer) throws InterruptedException {
        BlockingQueue<Long> queue = new LinkedBlockingQueue<>();
        for (int i = 0; i < TIMEOUTS; i++) {
            long start = System.nanoTime();
            timer.newTimeout(t -> queue.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)),
                    TIMEOUT, TimeUnit.MILLISECONDS);
        }
        List<Long> delays = new ArrayList<>(TIMEOUTS);
        for (int i = 0; i < TIMEOUTS; i++) {
            Long delay = queue.poll(GIVE_UP_SECONDS, TimeUnit.SECONDS);
            if (delay == null) {
                throw new AssertionError("only " + i + " of " + TIMEOUTS + " timeouts ran (expected: all, each within "
                        + GIVE_UP_SECONDS + " s of the one before)");
            }
            delays.add(delay);
        }
        return delays;
    }
}
