package dev.cim.benchmark;

import io.netty.util.Timeout;
import io.netty.util.TimerTask;

/**
 * A job every timer under test can take as it is: a {@link Runnable} for ours and the executor, and
 * a Netty {@link TimerTask} for {@code HashedWheelTimer}, so no adapter wraps a job in another
 * object and the job objects the harness creates are the only ones.
 */
abstract class BenchJob implements Runnable, TimerTask {

    @Override
    public final void run(Timeout timeout) {
        run();
    }

    /** A constant, so a timer that describes its jobs (ours, on stop) makes no string per job. */
    @Override
    public String toString() {
        return getClass().getSimpleName();
    }
}
