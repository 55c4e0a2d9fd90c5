package dev.cim.server.routing;

import dev.cim.common.protocol.ChatMessage;
import java.util.Set;

/**
 * The other server nodes, as routing sees them: whether any is alive, which ones hold a user, and
 * how to hand them a message to deliver to their own sessions.
 */
public interface RemoteNodes {

    /** No other node: nothing is ever relayed. For a single node, and for tests. */
    RemoteNodes NONE = new RemoteNodes() {
        @Override
        public int peers() {
            return 0;
        }

        @Override
        public Set<String> hosting(String user) {
            return Set.of();
        }

        @Override
        public void send(String node, ChatMessage message) {
            throw new IllegalStateException("no remote node to send to: " + node);
        }

        @Override
        public void broadcast(ChatMessage message) {
        }
    };

    /**
     * How many other nodes were alive at the last presence refresh. Answered from memory, so a node
     * alone pays nothing for the chance of peers; a node that joins is seen within one refresh.
     */
    int peers();

    /** The other live nodes where {@code user} is online; asks Redis. */
    Set<String> hosting(String user);

    /** Relays {@code message} to {@code node}, which delivers it to its sessions of the recipient. */
    void send(String node, ChatMessage message);

    /** Relays a message to everyone to every other node. */
    void broadcast(ChatMessage message);
}
