package dev.cim.server.support;

import static org.awaitility.Awaitility.await;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.CimListener;
import dev.cim.client.core.ConnectionEvent;
import dev.cim.client.core.ScheduledChange;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A listener that keeps what a client heard, and waits for it with deadlines. */
public final class Recorder implements CimListener {

    public static final Duration WAIT = Duration.ofSeconds(20);

    public final List<ChatMessage> messages = new CopyOnWriteArrayList<>();
    public final List<ConnectionEvent> events = new CopyOnWriteArrayList<>();
    public final List<ScheduledChange> changes = new CopyOnWriteArrayList<>();

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

    /** The texts received, in order. */
    public List<String> texts() {
        return messages.stream().map(ChatMessage::text).toList();
    }

    /** Waits until {@code count} messages have arrived; returns them. */
    public List<ChatMessage> awaitMessages(int count) {
        await("" + count + " messages (have " + messages.size() + ")").atMost(WAIT).until(() -> messages.size() >= count);
        return List.copyOf(messages);
    }

    /** Waits for a message with {@code text}. */
    public ChatMessage awaitText(String text) {
        await("a message '" + text + "' (have " + texts() + ")").atMost(WAIT)
                .until(() -> messages.stream().anyMatch(m -> m.text().equals(text)));
        return messages.stream().filter(m -> m.text().equals(text)).findFirst().orElseThrow();
    }

    /** Waits for a scheduled-message change of {@code kind}. */
    public ScheduledChange awaitChange(ScheduledChange.Kind kind) {
        await("a " + kind + " change (have " + changes + ")").atMost(WAIT)
                .until(() -> changes.stream().anyMatch(c -> c.kind() == kind));
        return changes.stream().filter(c -> c.kind() == kind).findFirst().orElseThrow();
    }

    /** Waits for a connection event of {@code type}. */
    public <T extends ConnectionEvent> T awaitEvent(Class<T> type) {
        await("a " + type.getSimpleName() + " event (have " + events + ")").atMost(WAIT)
                .until(() -> events.stream().anyMatch(type::isInstance));
        return events.stream().filter(type::isInstance).map(type::cast).findFirst().orElseThrow();
    }
}
