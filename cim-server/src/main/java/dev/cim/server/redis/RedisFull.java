package dev.cim.server.redis;

import dev.cim.server.store.StoreFullException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Turns Redis' refusal of a write over its {@code maxmemory} ({@code OOM command not allowed when used
 * memory > 'maxmemory'}, also inside a script) into a {@link StoreFullException}, so that the chat
 * core can tell the sender that the server's storage is full. Done once, in the templates every store
 * uses: each of their operations, scripts and transactions included, passes through
 * {@link RedisTemplate#execute(RedisCallback, boolean, boolean)}. An operator is warned in the log,
 * at most once a minute. The same templates time each round trip ({@link RedisRoundTrips}).
 */
public final class RedisFull {

    private static final Logger log = LoggerFactory.getLogger(RedisFull.class);
    /** The start of Redis' error, the same in 6.2 and 7, for commands and for scripts. */
    static final String OOM = "OOM command not allowed";
    private static final long WARN_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);
    private static final AtomicLong lastWarning = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);

    private RedisFull() {
    }

    /** {@code failure} as a {@link StoreFullException} if Redis refused for want of memory, else itself. */
    public static RuntimeException translate(RuntimeException failure) {
        if (failure instanceof StoreFullException || !outOfMemory(failure)) {
            return failure;
        }
        long now = System.nanoTime();
        long last = lastWarning.get();
        if (now - last >= WARN_EVERY_NANOS && lastWarning.compareAndSet(last, now)) {
            log.warn("Redis refuses writes: it has reached its maxmemory (for the embedded Redis, "
                    + "cim.server.redis.maxmemory). Senders are told the server's storage is full; nothing stored "
                    + "is evicted. Raise the limit, or let inboxes drain.");
        }
        return new StoreFullException("Redis is full (maxmemory reached): " + failure.getMessage(), failure);
    }

    private static boolean outOfMemory(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null && message.contains(OOM)) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /**
     * Calls through a template on this thread, nested included: a pipeline's operations pass through
     * the template again inside the pipeline's own call, and only that outer call is a round trip.
     */
    private static final ThreadLocal<int[]> depth = ThreadLocal.withInitial(() -> new int[1]);

    /** A round trip through a template: timed (the outermost call only), and a Redis full translated. */
    private static <T> T roundTrip(RedisRoundTrips roundTrips, Supplier<T> call) {
        int[] calls = depth.get();
        if (calls[0]++ > 0) {
            try {
                return call.get();
            } catch (RuntimeException e) {
                throw translate(e);
            } finally {
                calls[0]--;
            }
        }
        long start = System.nanoTime();
        try {
            T result = call.get();
            roundTrips.ended(start, true);
            return result;
        } catch (RuntimeException e) {
            roundTrips.ended(start, false);
            throw translate(e);
        } finally {
            calls[0]--;
        }
    }

    /** A template of string keys and byte-array values (set its serializers) that translates and times. */
    public static final class BytesTemplate extends RedisTemplate<String, byte[]> {
        private final RedisRoundTrips roundTrips;

        public BytesTemplate(RedisRoundTrips roundTrips) {
            this.roundTrips = roundTrips;
        }

        @Override
        public <T> T execute(RedisCallback<T> action, boolean exposeConnection, boolean pipeline) {
            return roundTrip(roundTrips, () -> super.execute(action, exposeConnection, pipeline));
        }
    }

    /** A {@link StringRedisTemplate} that translates and times. */
    public static final class StringTemplate extends StringRedisTemplate {
        private final RedisRoundTrips roundTrips;

        public StringTemplate(RedisConnectionFactory connections, RedisRoundTrips roundTrips) {
            super(connections);
            this.roundTrips = roundTrips;
        }

        @Override
        public <T> T execute(RedisCallback<T> action, boolean exposeConnection, boolean pipeline) {
            return roundTrip(roundTrips, () -> super.execute(action, exposeConnection, pipeline));
        }
    }
}
