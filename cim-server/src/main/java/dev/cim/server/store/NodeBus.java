package dev.cim.server.store;

import dev.cim.common.protocol.proto.NodeMessage;
import java.util.function.Consumer;

/**
 * How server nodes talk to each other: messages to one node, or to all. Delivery is at most once
 * and only to nodes listening at that moment (a node that dies loses what was on its way to it), so
 * whatever depends on an answer also has a deadline.
 */
public interface NodeBus {

    /** Sends {@code message} to {@code node}. Never blocks the caller for long; in order per caller thread. */
    void send(String node, NodeMessage message);

    /** Sends {@code message} to every other node. */
    void broadcast(NodeMessage message);

    /** Where messages to this node go; set once before start. */
    void listen(Consumer<NodeMessage> listener);
}
