package dev.cim.server.redis;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.cim.common.protocol.proto.NodeMessage;
import dev.cim.server.store.NodeBus;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * The node bus over Redis pub/sub: {@link RedisKeys#bus} of each node, {@link RedisKeys#BUS_ALL} for
 * all. Messages are published by one thread of this node's, in the order handed over, so callers
 * never wait for Redis and what one thread sends arrives in order. Pub/sub delivers only to nodes
 * subscribed at that moment; the chat core gives everything it relays a deadline.
 */
public final class RedisNodeBus implements NodeBus, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisNodeBus.class);

    private final RedisTemplate<String, byte[]> redis;
    private final RedisMessageListenerContainer listeners;
    private final String nodeId;
    private final ExecutorService publisher;

    public RedisNodeBus(RedisTemplate<String, byte[]> redis, RedisMessageListenerContainer listeners, String nodeId) {
        this.redis = redis;
        this.listeners = listeners;
        this.nodeId = nodeId;
        this.publisher = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "cim-bus-publisher");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void send(String node, NodeMessage message) {
        publish(RedisKeys.bus(node), message);
    }

    @Override
    public void broadcast(NodeMessage message) {
        publish(RedisKeys.BUS_ALL, message);
    }

    private void publish(String channel, NodeMessage message) {
        byte[] body = message.toByteArray();
        byte[] name = RedisBytes.of(channel);
        publisher.execute(() -> {
            try {
                redis.execute((RedisCallback<Long>) c -> c.publish(name, body));
            } catch (RuntimeException e) {
                log.warn("Could not publish a {} on {}: {}", message.getKindCase(), channel, e.toString());
            }
        });
    }

    @Override
    public void listen(Consumer<NodeMessage> listener) {
        MessageListener receiver = (Message message, byte[] pattern) -> {
            try {
                listener.accept(NodeMessage.parseFrom(message.getBody()));
            } catch (InvalidProtocolBufferException e) {
                log.warn("Dropped an unreadable message on {}: {}", new String(message.getChannel()), e.getMessage());
            }
        };
        listeners.addMessageListener(receiver, List.of(new ChannelTopic(RedisKeys.bus(nodeId)),
                new ChannelTopic(RedisKeys.BUS_ALL)));
    }

    @Override
    public void close() {
        publisher.shutdown();
        try {
            publisher.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
