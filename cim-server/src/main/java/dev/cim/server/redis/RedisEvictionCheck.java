package dev.cim.server.redis;

import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Warns, once the server is up, when its Redis would drop chat data to make room: a
 * {@code maxmemory-policy} other than {@code noeviction} evicts keys (accounts, inboxes, scheduled
 * messages) silently when Redis is full. The embedded Redis is always {@code noeviction}; an external
 * one is its operator's, so the server says what it found rather than refusing to start. Reads
 * {@code INFO memory}, which needs no {@code CONFIG}.
 */
public final class RedisEvictionCheck {

    private static final Logger log = LoggerFactory.getLogger(RedisEvictionCheck.class);

    private final StringRedisTemplate redis;

    public RedisEvictionCheck(StringRedisTemplate redis) {
        this.redis = redis;
    }

    @EventListener(ApplicationReadyEvent.class)
    public void check() {
        Properties memory;
        try {
            memory = redis.execute((RedisCallback<Properties>) c -> c.serverCommands().info("memory"));
        } catch (RuntimeException e) {
            log.debug("Could not read Redis' memory settings: {}", e.toString());
            return;
        }
        if (memory == null) {
            return;
        }
        String policy = memory.getProperty("maxmemory_policy");
        String limit = memory.getProperty("maxmemory");
        if (policy != null && !policy.equals("noeviction")) {
            log.warn("Redis evicts keys when it is full (maxmemory-policy {}): accounts, inboxes and scheduled "
                    + "messages may vanish without an error. Set maxmemory-policy noeviction on that Redis: "
                    + "writes are then refused, and senders told the server's storage is full.", policy);
        } else if ("0".equals(limit)) {
            log.info("Redis has no maxmemory: it grows until the machine runs out of memory. Set maxmemory "
                    + "(with maxmemory-policy noeviction) on that Redis to bound it.");
        }
    }
}
