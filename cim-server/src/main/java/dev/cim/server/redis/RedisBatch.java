package dev.cim.server.redis;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;

/**
 * Several commands in one round trip: sent one after the other on the shared connection, their
 * answers awaited together. Spring's own pipelines ({@code executePipelined}) take a dedicated
 * connection each, which without a pool is a new TCP connection with its {@code HELLO},
 * {@code AUTH} and {@code CLIENT SETINFO} for every batch: a login's presence update, every
 * heartbeat. On a Redis Cluster each command goes to its key's node, as the shared cluster
 * connection routes it.
 */
final class RedisBatch {

    /** How long a batch waits for its answers: Lettuce's own default command timeout. */
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** Sends the batch's commands, adding each one's future to {@code sent}, in order. */
    interface Commands {
        void send(RedisClusterAsyncCommands<byte[], byte[]> redis, List<RedisFuture<?>> sent);
    }

    private RedisBatch() {
    }

    /**
     * Runs {@code commands}; the first command that failed fails the batch (after all were
     * answered), as a full Redis's {@link dev.cim.server.store.StoreFullException} where it was one.
     *
     * @return each command's answer, in order
     */
    static List<Object> run(RedisOperations<?, ?> redis, Commands commands) {
        return redis.execute((RedisCallback<List<Object>>) connection -> {
            List<RedisFuture<?>> sent = new ArrayList<>();
            commands.send(async(connection.getNativeConnection()), sent);
            List<Object> answers = outcomes(sent);
            for (Object answer : answers) {
                if (answer instanceof RuntimeException e) {
                    throw e;
                }
            }
            return answers;
        });
    }

    @SuppressWarnings("unchecked")
    static RedisClusterAsyncCommands<byte[], byte[]> async(Object nativeConnection) {
        return (RedisClusterAsyncCommands<byte[], byte[]>) nativeConnection;
    }

    /**
     * Each future's answer, or the {@link RuntimeException} it failed with, in order; a batch whose
     * answers do not all come within {@link #TIMEOUT} fails whole.
     */
    static List<Object> outcomes(List<? extends RedisFuture<?>> futures) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        List<Object> answers = new ArrayList<>(futures.size());
        for (RedisFuture<?> future : futures) {
            answers.add(outcome(future, deadline));
        }
        return answers;
    }

    private static Object outcome(RedisFuture<?> future, long deadline) {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            return e.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Redis", e);
        } catch (TimeoutException e) {
            throw new QueryTimeoutException("Redis did not answer a batch within " + TIMEOUT, e);
        }
    }
}
