package dev.cim.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.client.console.ChatView;
import dev.cim.client.console.RecordingConsole;
import dev.cim.client.console.ScheduleView;
import dev.cim.client.console.Times;
import dev.cim.client.console.UserZone;
import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.ConnectionEvent;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.ScheduledChange;
import dev.cim.client.core.ScheduledMessage;
import dev.cim.client.core.ServerAddress;
import dev.cim.client.core.When;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConsoleListenerTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2027-03-27T09:00:00Z"), ZoneId.of("Europe/Paris"));
    private static final ServerAddress SERVER = new ServerAddress("127.0.0.1", 9000);

    private final RecordingConsole console = new RecordingConsole();
    private final List<String> lines = console.lines;
    private final Times times = new Times(CLOCK, new UserZone(CLOCK.getZone()));
    private final ConsoleListener listener = new ConsoleListener(new ChatView(console, times, "alice"),
            new ScheduleView(console, times), "alice");

    @Test
    void onConnection_eachEvent_isOneLine() {
        listener.onConnection(new ConnectionEvent.Connecting(SERVER, 1));
        listener.onConnection(new ConnectionEvent.Connecting(SERVER, 2));
        listener.onConnection(new ConnectionEvent.Connected(SERVER, "node-a", true, 2));
        listener.onConnection(new ConnectionEvent.Disconnected("lost the connection to 127.0.0.1:9000", Duration.ofMillis(180)));
        listener.onConnection(new ConnectionEvent.GoingAway("node-a is stopping", Duration.ofMillis(1200)));
        listener.onConnection(new ConnectionEvent.Refused("wrong password"));
        listener.onConnection(new ConnectionEvent.TlsFailed("the server at 127.0.0.1:9000 does not speak TLS"));

        assertThat(lines).containsExactly(
                "connecting to 127.0.0.1:9000 as alice ...",
                "logged in as alice (new account) on node-a; sent 2 held messages. Type :help for commands.",
                "lost the connection to 127.0.0.1:9000; reconnecting in 180 ms",
                "node-a is stopping; reconnecting in 1200 ms",
                "error: login refused: wrong password",
                "error: the server at 127.0.0.1:9000 does not speak TLS; see cim.client.tls.* in the README");
    }

    /** Reasons and node names come from the server: they are rendered inert like messages. */
    @Test
    void onConnection_textFromTheServer_isRenderedInert() {
        listener.onConnection(new ConnectionEvent.GoingAway("bye\u001B[2J\u001B]2;owned\u0007", Duration.ZERO));
        listener.onConnection(new ConnectionEvent.Disconnected("the server at x said: \u009B2J\nfake", Duration.ZERO));
        listener.onConnection(new ConnectionEvent.Connected(SERVER, "node\u202E-a", false, 0));

        assertThat(lines).allSatisfy(line -> assertThat(line.chars())
                .noneMatch(c -> Character.getType(c) == Character.CONTROL || (c >= 0x202A && c <= 0x202E)));
        assertThat(lines.get(0)).startsWith("bye^[[2J^[]2;owned^G;");
    }

    @Test
    void onScheduledChange_saysWhatHappenedToWhichNumber() {
        ScheduledMessage message = new ScheduledMessage("00000000000000a1-3", 3, Recipient.user("bob"), "hi",
                Instant.parse("2027-03-27T10:00:00Z"), Duration.ofHours(1));

        listener.onScheduledChange(new ScheduledChange(ScheduledChange.Kind.SCHEDULED, message));
        listener.onScheduledChange(new ScheduledChange(ScheduledChange.Kind.EDITED, message));
        listener.onScheduledChange(new ScheduledChange(ScheduledChange.Kind.CANCELLED, message));
        listener.onScheduledChange(new ScheduledChange(ScheduledChange.Kind.SENT, message));
        listener.onScheduledChange(new ScheduledChange(ScheduledChange.Kind.FAILED, message,
                "the inbox of bob is full\u001B[2J"));

        assertThat(lines).containsExactly(
                "scheduled message #3 to @bob was scheduled on another terminal, for 11:00:00",
                "scheduled message #3 to @bob was changed on another terminal: now due 11:00:00",
                "scheduled message #3 to @bob was cancelled on another terminal",
                "scheduled message #3 to @bob was sent",
                "error: scheduled message #3 to @bob could not be sent: the inbox of bob is full^[[2J");
    }

    @Test
    void onScheduledChange_ofASeries_saysWhatComesNext() {
        When rule = When.every("2s").times(3);
        ScheduledMessage second = new ScheduledMessage("00000000000000a1-5", 5, Recipient.user("bob"), "tick",
                Instant.parse("2027-03-27T09:00:02Z"), Duration.ZERO, rule, 2, Optional.empty());
        ScheduledMessage third = new ScheduledMessage("00000000000000a1-5", 5, Recipient.user("bob"), "tick",
                Instant.parse("2027-03-27T09:00:04Z"), Duration.ZERO, rule, 3, Optional.empty());

        listener.onScheduledChange(new ScheduledChange(ScheduledChange.Kind.SKIPPED, second, "", Optional.of(third)));
        listener.onScheduledChange(new ScheduledChange(ScheduledChange.Kind.DROPPED, third,
                "not sent: it would have gone 2s late, past its limit of 1s", Optional.empty()));

        assertThat(lines).containsExactly(
                "scheduled message #5 to @bob: occurrence 2 was skipped on another terminal; next: occurrence 3 at 10:00:04",
                "scheduled message #5 to @bob was dropped: it would have gone 2s late, past its limit of 1s; "
                        + "the series has ended");
    }

    @Test
    void onZoneChanged_saysSoInOneInertLine() {
        listener.onZoneChanged(ZoneId.of("Asia/Tokyo"));

        assertThat(lines).containsExactly("your time zone was set to Asia/Tokyo on another terminal: :at and :every "
                + "read times there, and times are shown there");
    }

    @Test
    void onMessage_isShownByTheView() {
        listener.onMessage(new ChatMessage("00000000000000b0-1", "bob", "alice", "hi", CLOCK.instant(), null));

        assertThat(lines).containsExactly("[10:00:00] bob to you: hi");
    }
}
