package dev.cim.client.core;

import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A listener that records what a client hears, for tests to wait on and check. */
final class Recorder implements CimListener {

    final List<ChatMessage> messages = new CopyOnWriteArrayList<>();
    final List<ConnectionEvent> events = new CopyOnWriteArrayList<>();
    final List<ScheduledChange> changes = new CopyOnWriteArrayList<>();

    @Override
    public void onMessage(ChatMessage message) {
        messages.add(message);
    }

    @Override
    public void onConnection(ConnectionEvent event) {
        events.add(event);
    }

    @Override
    public void onScheduledChange(ScheduledChange change) {
        changes.add(change);
    }

    /** The first event of {@code type}, waiting for it up to {@link FakeServer#WAIT}. */
    <T extends ConnectionEvent> T awaitEvent(Class<T> type) {
        await().atMost(FakeServer.WAIT).until(() -> events.stream().anyMatch(type::isInstance));
        return events.stream().filter(type::isInstance).map(type::cast).findFirst().orElseThrow();
    }

    /** The events of {@code type} so far. */
    <T extends ConnectionEvent> List<T> events(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** The ids of the messages heard, in order. */
    List<String> messageIds() {
        return messages.stream().map(m -> m.sender() + "/" + m.id()).toList();
    }
}
