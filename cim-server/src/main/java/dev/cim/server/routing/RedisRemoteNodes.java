package dev.cim.server.routing;

import dev.cim.common.protocol.ChatMessage;
import dev.cim.common.protocol.proto.Relay;
import dev.cim.server.presence.PresenceStore;
import java.util.HashSet;
import java.util.Set;
import org.springframework.data.redis.core.RedisTemplate;

/**
 * {@link RemoteNodes} over Redis: presence says where users are, and messages travel as
 * {@link Relay} protos on pub/sub channels {@code cim:relay:<node>} (one node) and
 * {@code cim:relay:all} (every node; the origin ignores its own). Pub/sub delivers only to nodes
 * subscribed at that moment: a node that dies mid-relay loses what was in flight to it, like a TCP
 * connection that drops.
 */
public final class RedisRemoteNodes implements RemoteNodes {

    /** The channel every node listens on, for messages to everyone. */
    public static final String ALL = "cim:relay:all";

    private final RedisTemplate<String, byte[]> redis;
    private final PresenceStore presence;
    private volatile Set<String> peers = Set.of();

    public RedisRemoteNodes(RedisTemplate<String, byte[]> redis, PresenceStore presence) {
        this.redis = redis;
        this.presence = presence;
    }

    /** The channel of one node. */
    public static String channelOf(String node) {
        return "cim:relay:" + node;
    }

    /** Takes the other live nodes, as found by the presence heartbeat. */
    public void updatePeers(Set<String> livePeers) {
        peers = Set.copyOf(livePeers);
    }

    @Override
    public int peers() {
        return peers.size();
    }

    @Override
    public Set<String> hosting(String user) {
        Set<String> nodes = new HashSet<>(presence.nodesOf(user));
        nodes.remove(presence.nodeId());
        return nodes;
    }

    @Override
    public void send(String node, ChatMessage message) {
        redis.convertAndSend(channelOf(node), relay(message));
    }

    @Override
    public void broadcast(ChatMessage message) {
        redis.convertAndSend(ALL, relay(message));
    }

    private byte[] relay(ChatMessage message) {
        return Relay.newBuilder().setOriginNode(presence.nodeId()).setChat(message.toProto()).build().toByteArray();
    }
}
