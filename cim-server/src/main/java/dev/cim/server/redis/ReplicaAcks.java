package dev.cim.server.redis;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;

/**
 * Holds a write's confirmation until enough replicas have it ({@code cim.server.redis.replicas-to-ack}):
 * Redis replicates asynchronously, so a write its master confirmed can die with that master; Redis'
 * {@code WAIT n timeout} answers once {@code n} replicas have every write the connection made before
 * it. The stores call {@link #await} after a write that holds a message (an inbox, a group's log, a
 * scheduled message) and before it is confirmed; a write that fewer replicas took within the timeout
 * fails as the storage being unavailable, and its sender sends it again.
 *
 * <h3>One WAIT for many writes</h3>
 * {@code WAIT} goes on the connection that wrote (the shared one, or on a cluster the shared
 * connection to the key's master), and Redis serves nothing else on that connection while it waits.
 * So writes are confirmed in groups, as a database commits a group of transactions with one log
 * flush: at most one {@code WAIT} is out per master; the writes done while it is out share the next
 * one, sent when it returns, which covers them all (each was answered before that {@code WAIT} was
 * sent). The cost is one replication round trip per group, not per message.
 */
public final class ReplicaAcks {

    /** Confirms at once: the default, {@code replicas-to-ack} 0. */
    public static final ReplicaAcks NONE = new ReplicaAcks(null, 0, Duration.ZERO);

    /** Beyond the WAIT's own timeout, how long a caller waits for its answer. */
    private static final long ANSWER_MARGIN_MILLIS = 2_000;

    private final RedisOperations<?, ?> redis;
    private final int replicas;
    private final Duration timeout;
    private final ConcurrentHashMap<String, Master> masters = new ConcurrentHashMap<>();

    /**
     * @param replicas how many replicas must have a write before it is confirmed; 0 for none
     * @param timeout  how long a {@code WAIT} waits for them (at least 1 ms)
     */
    public ReplicaAcks(RedisOperations<?, ?> redis, int replicas, Duration timeout) {
        if (replicas < 0) {
            throw new IllegalArgumentException("cim.server.redis.replicas-to-ack: " + replicas + " (expected: >= 0)");
        }
        if (replicas > 0 && (timeout == null || timeout.toMillis() < 1)) {
            throw new IllegalArgumentException("cim.server.redis.replicas-ack-timeout: " + timeout
                    + " (expected: at least 1ms)");
        }
        this.redis = redis;
        this.replicas = replicas;
        this.timeout = timeout;
    }

    /** How many replicas a write waits for. */
    public int replicas() {
        return replicas;
    }

    /**
     * Returns once {@link #replicas()} replicas of {@code key}'s master have every write made on it
     * before this call; at once when none are asked for.
     *
     * @throws NotReplicatedException when fewer had it within the timeout
     * @throws QueryTimeoutException  when Redis did not answer
     */
    public void await(byte[] key) {
        awaitAll(List.of(key));
    }

    /** {@link #await} for the writes on each of {@code keys}, their masters asked at once. */
    public void awaitAll(Collection<byte[]> keys) {
        if (replicas == 0 || keys.isEmpty()) {
            return;
        }
        Map<String, Target> targets = redis.execute((RedisCallback<Map<String, Target>>) connection -> {
            Map<String, Target> each = new HashMap<>();
            for (byte[] key : keys) {
                Target target = target(connection.getNativeConnection(), key);
                each.putIfAbsent(target.name(), target);
            }
            return each;
        });
        List<CompletableFuture<Long>> answers = new ArrayList<>(targets.size());
        targets.values().forEach(target ->
                answers.add(masters.computeIfAbsent(target.name(), name -> new Master()).join(target.commands())));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout.toMillis() + ANSWER_MARGIN_MILLIS);
        for (CompletableFuture<Long> answer : answers) {
            long acked;
            try {
                acked = answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new QueryTimeoutException("interrupted while waiting for the replicas", e);
            } catch (TimeoutException e) {
                throw new QueryTimeoutException("Redis did not answer WAIT within " + timeout, e);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(e.getCause());
            }
            if (acked < replicas) {
                throw new NotReplicatedException(acked + " of the " + replicas
                        + " replicas asked for took the write within " + timeout);
            }
        }
    }

    /** Where to send the WAIT for {@code key}: its master's connection, named for grouping. */
    private record Target(String name, RedisClusterAsyncCommands<byte[], byte[]> commands) {
    }

    @SuppressWarnings("unchecked")
    private static Target target(Object nativeConnection, byte[] key) {
        if (nativeConnection instanceof RedisAdvancedClusterAsyncCommands<?, ?> cluster) {
            RedisClusterNode master = cluster.getStatefulConnection().getPartitions()
                    .getPartitionBySlot(SlotHash.getSlot(key));
            if (master == null) {
                throw new QueryTimeoutException("no master serves the slot of the write (the cluster is failing over)");
            }
            RedisURI uri = master.getUri();
            // The connection the write went on: Lettuce keeps one per master's host and port.
            return new Target(uri.getHost() + ":" + uri.getPort(),
                    (RedisClusterAsyncCommands<byte[], byte[]>) cluster.getConnection(uri.getHost(), uri.getPort()));
        }
        return new Target("", RedisBatch.async(nativeConnection));
    }

    /** The WAITs of one master: one out at a time, the next shared by whoever came meanwhile. */
    private final class Master {
        private CompletableFuture<Long> next;
        private boolean out;
        private RedisClusterAsyncCommands<byte[], byte[]> commands;

        synchronized CompletableFuture<Long> join(RedisClusterAsyncCommands<byte[], byte[]> latest) {
            commands = latest;
            if (next == null) {
                next = new CompletableFuture<>();
            }
            CompletableFuture<Long> mine = next;
            if (!out) {
                send();
            }
            return mine;
        }

        /** Holding the lock: sends the WAIT of those waiting for the next. */
        private void send() {
            CompletableFuture<Long> group = next;
            next = null;
            out = true;
            RedisFuture<Long> wait;
            try {
                wait = commands.waitForReplication(replicas, timeout.toMillis());
            } catch (RuntimeException e) {
                out = false;
                group.completeExceptionally(e);
                return;
            }
            wait.whenComplete((acked, failure) -> {
                if (failure != null) {
                    group.completeExceptionally(failure);
                } else {
                    group.complete(acked);
                }
                synchronized (this) {
                    out = false;
                    if (next != null) {
                        send();
                    }
                }
            });
        }
    }

    /** Fewer replicas than asked for took a write within the timeout: it is not confirmed. */
    public static final class NotReplicatedException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public NotReplicatedException(String message) {
            super(message, null, false, false);
        }
    }
}
