package dev.cim.server.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.protocol.ChatMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class MessageStamperTest {

    private static final Instant NOW = Instant.parse("2026-05-01T12:00:00Z");
    private final MessageStamper stamper = new MessageStamper(Clock.fixed(NOW, ZoneOffset.UTC), "n1");

    @Test
    void stamp_assignsUniqueIdsTheSenderAndTheServerTime_replacingTheClients() {
        ChatMessage sent = new ChatMessage("client-id", "", "bob", "hi", Instant.EPOCH, null);

        ChatMessage first = stamper.stamp(sent, "alice");
        ChatMessage second = stamper.stamp(sent, "alice");

        assertThat(first.id()).startsWith("n1-").isNotEqualTo(second.id());
        assertThat(first.sender()).isEqualTo("alice");
        assertThat(first.sentAt()).isEqualTo(NOW);
        assertThat(first.text()).isEqualTo("hi");
    }

    @Test
    void stamp_delayedMessage_keepsItsDelay() {
        ChatMessage.Delay delay = new ChatMessage.Delay(Duration.ofSeconds(30), NOW.minusMillis(3));

        ChatMessage stamped = stamper.stamp(ChatMessage.outgoingDelayed("bob", "later", delay), "alice");

        assertThat(stamped.delay()).isEqualTo(delay);
    }

    @Test
    void problem_wellFormedMessages_none() {
        assertThat(stamper.problem(ChatMessage.outgoing("bob", "hi"), "alice")).isEmpty();
        assertThat(stamper.problem(ChatMessage.outgoing(ChatMessage.EVERYONE, "hi"), "alice")).isEmpty();
        assertThat(stamper.problem(new ChatMessage("", "alice", "bob", "hi", Instant.EPOCH, null), "alice")).isEmpty();
    }

    @Test
    void problem_anotherSendersName_isRefused() {
        assertThat(stamper.problem(new ChatMessage("", "mallory", "bob", "hi", Instant.EPOCH, null), "alice"))
                .hasValueSatisfying(p -> assertThat(p).contains("sender"));
    }

    @Test
    void problem_blankOrOverlongText_isRefused() {
        assertThat(stamper.problem(ChatMessage.outgoing("bob", " \t"), "alice")).isPresent();
        assertThat(stamper.problem(ChatMessage.outgoing("bob", "x".repeat(ChatMessage.MAX_TEXT_LENGTH + 1)), "alice"))
                .hasValueSatisfying(p -> assertThat(p).contains("at most " + ChatMessage.MAX_TEXT_LENGTH));
    }

    @Test
    void problem_invalidRecipient_isRefused() {
        assertThat(stamper.problem(ChatMessage.outgoing("", "hi"), "alice")).isPresent();
        assertThat(stamper.problem(ChatMessage.outgoing("@bob", "hi"), "alice")).isPresent();
    }
}
