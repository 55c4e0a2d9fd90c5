package dev.cim.server.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.script.DigestUtils;

/**
 * One Lua script, run with EVALSHA (EVAL when Redis does not know it yet, after a restart). Keys are
 * declared, never built inside the script, so that every script is valid on a Redis Cluster; the
 * keys of one call share a hash tag.
 */
final class LuaScript {

    private final String name;
    private final byte[] source;
    private final byte[] sha;

    LuaScript(String name, String source) {
        this.name = name;
        this.source = source.getBytes(StandardCharsets.UTF_8);
        this.sha = DigestUtils.sha1DigestAsHex(source).getBytes(StandardCharsets.US_ASCII);
    }

    /** Runs the script; the result is as Redis returns it (a {@code List} of {@code Long} and {@code byte[]}). */
    Object run(RedisTemplate<String, byte[]> redis, List<byte[]> keys, List<byte[]> args) {
        byte[][] keysAndArgs = new byte[keys.size() + args.size()][];
        int i = 0;
        for (byte[] key : keys) {
            keysAndArgs[i++] = key;
        }
        for (byte[] arg : args) {
            keysAndArgs[i++] = arg;
        }
        return redis.execute((RedisCallback<Object>) connection -> run(connection, keys.size(), keysAndArgs));
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
