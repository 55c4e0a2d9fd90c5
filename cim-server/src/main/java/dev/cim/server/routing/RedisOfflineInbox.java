package dev.cim.server.routing;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.cim.common.protocol.ChatMessage;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.server.redis.RedisKeys;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.SessionCallback;

/**
 * Offline inboxes as Redis lists {@code cim:inbox:<user>} of serialized {@link Chat} protos: RPUSH
 * to store, and LRANGE + DEL in one MULTI/EXEC to drain, so a message stored during a drain is
 * either drained now or kept for the next login, never lost or delivered twice.
 */
public final class RedisOfflineInbox implements OfflineInbox {

    private static final Logger log = LoggerFactory.getLogger(RedisOfflineInbox.class);

    private final RedisTemplate<String, byte[]> redis;

    public RedisOfflineInbox(RedisTemplate<String, byte[]> redis) {
        this.redis = redis;
    }

    @Override
    public void store(String user, ChatMessage message) {
        redis.opsForList().rightPush(RedisKeys.inbox(user), message.toProto().toByteArray());
    }

    @Override
    public List<ChatMessage> drain(String user) {
        String key = RedisKeys.inbox(user);
        List<Object> results = redis.execute(new SessionCallback<List<Object>>() {
            @Override
            @SuppressWarnings("unchecked")
            public <K, V> List<Object> execute(RedisOperations<K, V> operations) throws DataAccessException {
                RedisOperations<String, byte[]> ops = (RedisOperations<String, byte[]>) operations;
                ops.multi();
                ops.opsForList().range(key, 0, -1);
                ops.delete(key);
                return ops.exec();
            }
        });
        List<ChatMessage> messages = new ArrayList<>();
        if (results == null || results.isEmpty() || !(results.get(0) instanceof List<?> stored)) {
            return messages;
        }
        for (Object entry : stored) {
            try {
                messages.add(ChatMessage.fromProto(Chat.parseFrom((byte[]) entry)));
            } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
                log.warn("Dropped an unreadable message from the inbox of {}: {}", user, e.getMessage());
            }
        }
        return messages;
    }
}
