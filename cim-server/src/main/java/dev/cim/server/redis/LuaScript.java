package dev.cim.server.redis;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.script.DigestUtils;

/**
 * One Lua script, run with EVALSHA (EVAL when Redis does not know it yet, after a restart). Keys are
 * declared, never built inside the script, so that every script is valid on a Redis Cluster; the
 * keys of one call share a hash tag.
 *
 * <p>{@link #runAll} runs it for many calls in one round trip ({@link RedisBatch}).
 */
final class LuaScript {

    /** One call's keys and arguments. */
    record Call(List<byte[]> keys, List<byte[]> args) {
    }

    private final String name;
    private final byte[] source;
    private final byte[] sha;
    private final String shaText;

    LuaScript(String name, String source) {
        this.name = name;
        this.source = source.getBytes(StandardCharsets.UTF_8);
        this.shaText = DigestUtils.sha1DigestAsHex(source);
        this.sha = shaText.getBytes(StandardCharsets.US_ASCII);
    }

    /** Runs the script; the result is as Redis returns it (a {@code List} of {@code Long} and {@code byte[]}). */
    Object run(RedisOperations<String, ?> redis, List<byte[]> keys, List<byte[]> args) {
        byte[][] keysAndArgs = keysAndArgs(keys, args);
        return redis.execute((RedisCallback<Object>) connection -> run(connection, keys.size(), keysAndArgs));
    }

    /**
     * Runs the script once for each of {@code calls}, in order, in one round trip.
     *
     * @return for each call, its result as {@link #run} gives it, or the {@link RuntimeException} it
     *         failed with (a full Redis as {@link dev.cim.server.store.StoreFullException}); a batch
     *         whose answers do not come within a minute fails whole
     */
    List<Object> runAll(RedisOperations<String, ?> redis, List<Call> calls) {
        if (calls.size() == 1) {
            Call call = calls.get(0);
            try {
                return List.of(run(redis, call.keys(), call.args()));
            } catch (RuntimeException e) {
                return List.of(e);
            }
        }
        return redis.execute((RedisCallback<List<Object>>) connection -> {
            RedisClusterAsyncCommands<byte[], byte[]> async = RedisBatch.async(connection.getNativeConnection());
            List<RedisFuture<Object>> futures = new ArrayList<>(calls.size());
            for (Call call : calls) {
                futures.add(async.evalsha(shaText, ScriptOutputType.MULTI, call.keys().toArray(byte[][]::new),
                        call.args().toArray(byte[][]::new)));
            }
            List<Object> results = RedisBatch.outcomes(futures);
            for (int i = 0; i < calls.size(); i++) {
                Object result = results.get(i);
                if (result instanceof RuntimeException e && isNoScript(e)) {
                    // Redis did not run it (it does not know the script yet): send it whole. The
                    // calls after it failed the same way, so order is kept.
                    Call call = calls.get(i);
                    try {
                        result = run(connection, call.keys().size(), keysAndArgs(call.keys(), call.args()));
                    } catch (RuntimeException again) {
                        result = again;
                    }
                }
                results.set(i, result instanceof RuntimeException e ? RedisFull.translate(e) : result);
            }
            return results;
        });
    }

    private static byte[][] keysAndArgs(List<byte[]> keys, List<byte[]> args) {
        byte[][] keysAndArgs = new byte[keys.size() + args.size()][];
        int i = 0;
        for (byte[] key : keys) {
            keysAndArgs[i++] = key;
        }
        for (byte[] arg : args) {
            keysAndArgs[i++] = arg;
        }
        return keysAndArgs;
    }

    private Object run(RedisConnection connection, int keyCount, byte[][] keysAndArgs) {
        try {
            return connection.scriptingCommands().evalSha(sha, ReturnType.MULTI, keyCount, keysAndArgs);
        } catch (RuntimeException e) {
            if (!isNoScript(e)) {
                throw e;
            }
            // Redis does not know the script yet (or lost it in a restart): send it whole once.
            return connection.scriptingCommands().eval(source, ReturnType.MULTI, keyCount, keysAndArgs);
        }
    }

    private static boolean isNoScript(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (String.valueOf(t.getMessage()).contains("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return name;
    }
}
