package dev.cim.client.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.client.core.ChatMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ChatViewTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    /** 2027-03-27 14:05:30 in Paris (UTC+1). */
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2027-03-27T13:05:30Z"), PARIS);
    /** 14:05:10 in Paris. */
    private static final Instant SENT = Instant.parse("2027-03-27T13:05:10Z");

    private final RecordingConsole console = new RecordingConsole();
    private final ChatView view = new ChatView(console, CLOCK, "alice");

    @Test
    void chat_broadcastFromAnother_showsTimeSenderAndText() {
        view.chat(message("bob", "everyone", "hello all", null));

        assertThat(console.lines).containsExactly("[14:05:10] bob: hello all");
    }

    @Test
    void chat_privateToMe_isFromThemToYou() {
        view.chat(message("bob", "alice", "see you at five", null));

        assertThat(console.lines).containsExactly("[14:05:10] bob to you: see you at five");
    }

    @Test
    void chat_privateSentByMeFromAnotherTerminal_isFromYouToThem() {
        view.chat(message("alice", "bob", "on my way", null));

        assertThat(console.lines).containsExactly("[14:05:10] you to bob: on my way");
    }

    @Test
    void chat_broadcastSentByMeFromAnotherTerminal_isFromYou() {
        view.chat(message("alice", "everyone", "hi all", null));

        assertThat(console.lines).containsExactly("[14:05:10] you: hi all");
    }

    @Test
    void chat_delayed_isMarkedWithTheDelayAsked() {
        ChatMessage.Delay delay = new ChatMessage.Delay(Duration.ofSeconds(5), SENT, false);
        view.chat(message("bob", "everyone", "dinner is ready", delay));
        view.chat(message("bob", "alice", "just for you", new ChatMessage.Delay(Duration.ofMinutes(90), SENT, true)));

        assertThat(console.lines).containsExactly(
                "[14:05:10] bob (delayed 5s): dinner is ready",
                "[14:05:10] bob to you (delayed 1h30m): just for you");
    }

    @Test
    void chat_scheduledWhenOnlineOrInASeries_isMarkedSo() {
        view.chat(message("bob", "alice", "welcome back", new ChatMessage.Delay(Duration.ZERO, SENT, true, 0, 0, true)));
        view.chat(message("bob", "alice", "tick", new ChatMessage.Delay(Duration.ZERO, SENT, true, 4, 2, false)));

        assertThat(console.lines).containsExactly(
                "[14:05:10] bob to you (when online): welcome back",
                "[14:05:10] bob to you (#4 of a series): tick");
    }

    @Test
    void chat_onceTheAccountHasAZone_showsTimesOnItsClock() {
        UserZone zone = new UserZone(PARIS);
        ChatView following = new ChatView(console, new Times(CLOCK, zone), "alice");
        zone.follow(() -> Optional.of(ZoneId.of("Asia/Tokyo")));

        following.chat(message("bob", "everyone", "hi", null));

        assertThat(console.lines).containsExactly("[22:05:10] bob: hi");
        assertThat(following.when(Instant.parse("2027-03-27T15:30:00Z"))).as("00:30 tomorrow in Tokyo")
                .isEqualTo("2027-03-28 00:30");
    }

    @Test
    void chat_controlCharactersInSenderRecipientOrText_areRenderedInert() {
        view.chat(message("\u001B[2Jmallory\u202E", "everyone", "hi\u001B]2;owned\u0007", null));
        view.chat(message("alice", "b\nob", "x", null));

        assertThat(console.lines).containsExactly(
                "[14:05:10] ^[[2Jmallory<U+202E>: hi^[]2;owned^G",
                "[14:05:10] you to b^Job: x");
    }

    @Test
    void chat_multiLineText_continuesOnIndentedLines() {
        view.chat(message("bob", "everyone", "line one\n[14:05:11] alice: I agree", null));

        assertThat(console.lines).singleElement().isEqualTo("[14:05:10] bob: line one" + System.lineSeparator()
                + Inert.CONTINUATION + "[14:05:11] alice: I agree");
    }

    @Test
    void when_today_isTheClockTimeOnly() {
        assertThat(view.when(SENT)).isEqualTo("14:05:10");
        assertThat(view.when(Instant.parse("2027-03-26T23:00:00Z"))).as("00:00 in Paris").isEqualTo("00:00:00");
    }

    @Test
    void when_anotherDay_showsTheDateToo() {
        assertThat(view.when(Instant.parse("2027-03-28T07:00:00Z"))).isEqualTo("2027-03-28 09:00");
        assertThat(view.when(Instant.parse("2027-03-26T22:59:59Z"))).as("23:59 the day before, in Paris")
                .isEqualTo("2027-03-26 23:59");
        assertThat(view.when(Instant.parse("2028-03-27T13:05:10Z"))).as("same day, next year")
                .isEqualTo("2028-03-27 15:05");
    }

    @Test
    void onlineUsersAndErrors_areOneInertLine() {
        view.onlineUsers(List.of("alice", "bob", "car\u001Bol"));
        view.error("bad\nthing");

        assertThat(console.lines).containsExactly("online (3): alice, bob, car^[ol", "error: bad^Jthing");
    }

    private static ChatMessage message(String sender, String recipient, String text, ChatMessage.Delay delay) {
        return new ChatMessage("00000000000000b0-1", sender, recipient, text, SENT, delay);
    }
}
