package dev.cim.client.core;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A listener that keeps what a client heard, for tests to wait on with deadlines and check: the
 * library's own tests (against a fake server) and the server's (against a real one). The one test
 * class the test-jar of cim-client-core carries.
 */
public final class Recorder implements CimListener {

    /** How long a wait for something a client should hear may take: generous, for two busy cores. */
    public static final Duration WAIT = Duration.ofSeconds(20);

    public final List<ChatMessage> messages = new CopyOnWriteArrayList<>();
    public final List<ConnectionEvent> events = new CopyOnWriteArrayList<>();
    public final List<ScheduledChange> changes = new CopyOnWriteArrayList<>();
    public final List<GroupChange> groupChanges = new CopyOnWriteArrayList<>();
    public final List<ZoneId> zones = new CopyOnWriteArrayList<>();

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
    @Override
    public void onGroupChange(GroupChange change) {
        groupChanges.add(change);
    }

    @Override
    public void onZoneChanged(ZoneId zone) {
        zones.add(zone);
    }

    /** Waits until the account's zone was changed on another terminal to {@code zone}. */
    public void awaitZone(ZoneId zone) {
        await("the zone " + zone + " (have " + zones + ")").atMost(WAIT).until(() -> zones.contains(zone));
    }

    /** The first change of {@code kind} to group {@code name}, once it has come. */
    public GroupChange awaitGroupChange(GroupChange.Kind kind, String name) {
        await().atMost(WAIT).until(() -> groupChanges.stream()
                .anyMatch(c -> c.kind() == kind && c.group().name().equals(name)));
        return groupChanges.stream().filter(c -> c.kind() == kind && c.group().name().equals(name)).findFirst()
                .orElseThrow();
    }

    public List<String> texts() {
        return messages.stream().map(ChatMessage::text).toList();
    }

    /** The messages received, in order, as {@code sender/id}. */
    public List<String> messageIds() {
        return messages.stream().map(m -> m.sender() + "/" + m.id()).toList();
    }

    /** The events of {@code type} so far. */
    public <T extends ConnectionEvent> List<T> events(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** Waits until {@code count} messages have arrived; returns them. */
    public List<ChatMessage> awaitMessages(int count) {
        await(count + " messages (have " + messages.size() + ")").atMost(WAIT).until(() -> messages.size() >= count);
        return List.copyOf(messages);
    }

    /** Waits for a message with {@code text}; returns the first. */
    public ChatMessage awaitText(String text) {
        await("a message '" + text + "' (have " + texts() + ")").atMost(WAIT)
                .until(() -> messages.stream().anyMatch(m -> m.text().equals(text)));
        return messages.stream().filter(m -> m.text().equals(text)).findFirst().orElseThrow();
    }

    /** Waits for a scheduled-message change of {@code kind}; returns the first. */
    public ScheduledChange awaitChange(ScheduledChange.Kind kind) {
        await("a " + kind + " change (have " + changes + ")").atMost(WAIT)
                .until(() -> changes.stream().anyMatch(c -> c.kind() == kind));
        return changes.stream().filter(c -> c.kind() == kind).findFirst().orElseThrow();
    }

    /** Waits for a connection event of {@code type}; returns the first. */
    public <T extends ConnectionEvent> T awaitEvent(Class<T> type) {
        await("a " + type.getSimpleName() + " event (have " + events + ")").atMost(WAIT)
                .until(() -> events.stream().anyMatch(type::isInstance));
        return events(type).get(0);
    }
}
