package dev.cim.server.redis;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * The time and outcome of each round trip to Redis, as the templates ({@link RedisFull}) make them:
 * one command, one pipeline, or one batch of script calls ({@code cim_redis_seconds{outcome}}).
 *
 * <p>Timed here, once per round trip, rather than by Lettuce's observations, which cost a context, a
 * tag list and a meter lookup per command: with one script call per scheduled message that was about
 * a quarter of the server's CPU while registering (a JFR profile of {@code cim-loadgen} part 4).
 */
public final class RedisRoundTrips {

    private static final RedisRoundTrips NONE = new RedisRoundTrips(null, null);

    private final Timer ok;
    private final Timer failed;

    private RedisRoundTrips(Timer ok, Timer failed) {
        this.ok = ok;
        this.failed = failed;
    }

    /** Round trips timed in {@code registry}. */
    public static RedisRoundTrips timedIn(MeterRegistry registry) {
        return new RedisRoundTrips(timer(registry, "ok"), timer(registry, "error"));
    }

    /** Round trips not timed (a program without metrics, such as the account tool). */
    public static RedisRoundTrips untimed() {
        return NONE;
    }

    private static Timer timer(MeterRegistry registry, String outcome) {
        return Timer.builder("cim.redis")
                .description("Round trips to Redis (a command, a pipeline or a batch of script calls), by outcome")
                .tag("outcome", outcome)
                .publishPercentileHistogram()
                .register(registry);
    }

    /** A round trip that began at {@code startNanos} ({@link System#nanoTime()}) ended, {@code ok} or failed. */
    void ended(long startNanos, boolean succeeded) {
        Timer timer = succeeded ? ok : failed;
        if (timer != null) {
            timer.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
        }
    }
}
