package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.CimClient;
import dev.cim.client.core.CimException;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.Recorder;
import dev.cim.client.core.ScheduledChange;
import dev.cim.client.core.ScheduledMessage;
import dev.cim.server.support.SharedServer;
import dev.cim.server.support.TestServer;
import dev.cim.testkit.Ports;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scheduled messages held by the server: registered, listed, edited, moved and cancelled from any
 * terminal, sent once at their time by the sender's client or by the server, never early.
 */
class ScheduledIntegrationTest {

    @RegisterExtension
    static final SharedServer shared = new SharedServer(
            "--cim.server.delays.max-per-user=5",
            "--cim.server.delays.max-delay=400d",
            "--cim.server.delays.scan-interval=200ms",
            "--cim.server.delays.release-grace=500ms");
    private final TestServer server = shared.server();

    @Test
    void schedule_isListedFromAnotherTerminal_andEveryChangeIsToldToIt() {
        shared.online(shared.name("bob"), new Recorder());
        Recorder other = new Recorder();
        CimClient otherTerminal = shared.online(shared.name("alice"), other);
        CimClient alice = shared.online(shared.name("alice"), new Recorder());

        ScheduledMessage scheduled = alice.schedule(Recipient.user(shared.name("bob")), "see you", Duration.ofHours(3)).join();
        assertThat(scheduled.number()).isEqualTo(1);
        assertThat(other.awaitChange(ScheduledChange.Kind.SCHEDULED).message().id()).isEqualTo(scheduled.id());
        List<ScheduledMessage> listed = otherTerminal.scheduled().join();
        assertThat(listed).extracting(ScheduledMessage::text).containsExactly("see you");

        ScheduledMessage edited = otherTerminal.edit(scheduled.id(), "see you soon").join();
        assertThat(edited.text()).isEqualTo("see you soon");
        Instant later = scheduled.dueAt().plus(Duration.ofHours(1));
        assertThat(otherTerminal.move(scheduled.id(), later).join().dueAt()).isEqualTo(later);
        assertThat(alice.scheduled().join()).singleElement()
                .satisfies(m -> {
                    assertThat(m.text()).isEqualTo("see you soon");
                    assertThat(m.dueAt()).isEqualTo(later);
                });
        alice.cancel(scheduled.id()).join();
        assertThat(other.awaitChange(ScheduledChange.Kind.CANCELLED).message().id()).isEqualTo(scheduled.id());
        assertThat(alice.scheduled().join()).isEmpty();
        assertThatThrownBy(() -> alice.cancel(scheduled.id()).join()).cause()
                .isInstanceOfSatisfying(CimException.class, e -> assertThat(e.reason()).isEqualTo(CimException.Reason.NOT_FOUND));
    }

    @Test
    void dueMessage_withItsSenderOnline_isSentOnce_byTheSendersClient_neverEarly() {
        Recorder bob = new Recorder();
        shared.online(shared.name("bob"), bob);
        CimClient alice = shared.online(shared.name("alice"), new Recorder());

        ScheduledMessage scheduled = alice.schedule(Recipient.user(shared.name("bob")), "on time", Duration.ofSeconds(2)).join();

        ChatMessage received = bob.awaitText("on time");
        assertThat(received.id()).isEqualTo(scheduled.id());
        assertThat(received.isDelayed()).isTrue();
        assertThat(received.delay().firedByServer()).isFalse();
        assertThat(received.sentAt()).isAfterOrEqualTo(scheduled.dueAt());
        // Forgotten once bob's client acknowledged it, which comes just after bob has it.
        await("the sent message leaves alice's list").atMost(Recorder.WAIT)
                .until(() -> alice.scheduled().join().isEmpty());
    }

    @Test
    void dueMessage_whoseSenderLeft_isSentByTheServer_neverEarly() {
        Recorder bob = new Recorder();
        shared.online(shared.name("bob"), bob);
        CimClient alice = shared.online(shared.name("alice"), new Recorder());
        ScheduledMessage scheduled = alice.schedule(Recipient.user(shared.name("bob")), "sent for you", Duration.ofSeconds(2)).join();
        alice.close();

        ChatMessage received = bob.awaitText("sent for you");

        assertThat(received.delay().firedByServer()).isTrue();
        assertThat(received.sentAt()).isAfterOrEqualTo(scheduled.dueAt());
    }

    @Test
    void schedulingToAUserWithoutAnAccount_isRefusedAtOnce_notWhenItIsDue() {
        CimClient alice = shared.online(shared.name("alice"), new Recorder());

        assertThatThrownBy(() -> alice.schedule(Recipient.user(shared.name("nobody")), "to no one", Duration.ofDays(30)).join())
                .cause().isInstanceOf(CimException.class).hasMessageContaining("no user named " + shared.name("nobody"));
        assertThat(alice.scheduled().join()).isEmpty();
    }

    @Test
    void schedulingPastTheServersMaximum_isRefusedSayingSo() {
        shared.online(shared.name("bob"), new Recorder());
        CimClient alice = shared.online(shared.name("alice"), new Recorder());

        assertThatThrownBy(() -> alice.schedule(Recipient.user(shared.name("bob")), "too far", Duration.ofDays(401)).join())
                .cause().isInstanceOf(CimException.class).hasMessageContaining("the most the server accepts");
    }

    @Test
    void schedulingPastTheUsersCap_isRefusedSayingSo() {
        shared.online(shared.name("bob"), new Recorder());
        CimClient alice = shared.online(shared.name("alice"), new Recorder());
        for (int i = 0; i < 5; i++) {
            alice.schedule(Recipient.user(shared.name("bob")), "n" + i, Duration.ofHours(5)).join();
        }

        assertThatThrownBy(() -> alice.schedule(Recipient.user(shared.name("bob")), "one more", Duration.ofHours(5)).join())
                .cause().isInstanceOfSatisfying(CimException.class,
                        e -> assertThat(e.reason()).isEqualTo(CimException.Reason.TOO_MANY_SCHEDULED))
                .hasMessageContaining("5 scheduled messages");
    }

    @Test
    void aStoppingServer_doesNotWaitForTheScheduledMessagesItHolds_whichRedisKeeps(@TempDir Path dataDir) {
        int redisPort = Ports.free();
        ScheduledMessage held;
        Duration stop;
        try (TestServer first = TestServer.embedded(redisPort, dataDir)) {
            first.client("vera", new Recorder()).connect().join();
            CimClient walt = first.client("walt", new Recorder());
            walt.connect().join();
            // Due within the wheel's drain timeout (30 s), and held on the server's wheel: a drain at
            // the stop would wait for it.
            held = walt.schedule(Recipient.user("vera"), "after the restart", Duration.ofSeconds(25)).join();
            walt.close();
            long start = System.nanoTime();
            first.close();
            stop = Duration.ofNanos(System.nanoTime() - start);
        }
        assertThat(stop).as("the stop, with a message due in 25 s").isLessThan(Duration.ofSeconds(15));
        try (TestServer second = TestServer.embedded(redisPort, dataDir)) {
            CimClient walt = second.client("walt", new Recorder());
            walt.connect().join();
            assertThat(walt.scheduled().join()).extracting(ScheduledMessage::id).containsExactly(held.id());
        }
    }
}
