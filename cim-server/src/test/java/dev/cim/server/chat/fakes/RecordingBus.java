package dev.cim.server.chat.fakes;

import dev.cim.common.protocol.proto.NodeMessage;
import dev.cim.server.store.NodeBus;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/** A node bus that keeps what is sent on it, and delivers nothing. */
public final class RecordingBus implements NodeBus {

    public final List<NodeMessage> sent = new CopyOnWriteArrayList<>();

    @Override
    public void send(String node, NodeMessage message) {
        sent.add(message);
    }

    @Override
    public void broadcast(NodeMessage message) {
        sent.add(message);
    }

    @Override
    public void listen(Consumer<NodeMessage> listener) {
    }
}
