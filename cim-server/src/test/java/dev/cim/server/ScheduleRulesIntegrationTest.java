package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.CimClient;
import dev.cim.client.core.CimException;
import dev.cim.client.core.LoginInfo;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.Recorder;
import dev.cim.client.core.ScheduledChange;
import dev.cim.client.core.ScheduledMessage;
import dev.cim.client.core.When;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.AccountSettings;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Schedule;
import dev.cim.common.protocol.proto.Timing;
import dev.cim.server.support.RawClient;
import dev.cim.server.support.SharedServer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a user sets for their scheduled messages and what the server tells them up front: the
 * account's time zone, shared by every terminal, and the limits in the login result.
 */
class ScheduleRulesIntegrationTest {

    @RegisterExtension
    static final SharedServer shared = new SharedServer(
            "--cim.server.delays.max-per-user=7",
            "--cim.server.limits.messages-per-second=40",
            "--cim.server.limits.message-burst=90");

    @Test
    void loginResult_tellsTheLimits_soAClientCanRefuseBeforeAsking() {
        CimClient alice = shared.online(shared.name("alice"), new Recorder());

        LoginInfo info = alice.connect().join();

        assertThat(info.maxScheduled()).isEqualTo(7);
        assertThat(info.messagesPerSecond()).isEqualTo(40);
        assertThat(info.messageBurst()).isEqualTo(90);
        assertThat(info.zone()).isEmpty();
    }

    @Test
    void zone_setOnOneTerminal_isToldToTheOthers_andComesWithTheNextLogin() {
        Recorder other = new Recorder();
        CimClient otherTerminal = shared.online(shared.name("alice"), other);
        CimClient alice = shared.online(shared.name("alice"), new Recorder());

        assertThat(alice.setZone(ZoneId.of("Europe/Berlin")).join()).isEqualTo(ZoneId.of("Europe/Berlin"));

        other.awaitZone(ZoneId.of("Europe/Berlin"));
        assertThat(otherTerminal.zone()).contains(ZoneId.of("Europe/Berlin"));
        assertThat(alice.zone()).contains(ZoneId.of("Europe/Berlin"));
        CimClient later = shared.online(shared.name("alice"), new Recorder());
        assertThat(later.connect().join().zone()).contains(ZoneId.of("Europe/Berlin"));
    }

    @Test
    void zone_unknownToTheServer_isRefusedSayingWhatIsExpected() {
        try (RawClient alice = RawClient.connect(shared.server().port()).login(shared.name("alice"), 77)) {
            alice.send(Envelopes.setSettings(5, AccountSettings.newBuilder().setZone("Mars/Olympus").build()));

            Envelope answer = alice.await("the answer", e -> e.getRequestId() == 5);
            assertThat(answer.getError().getCode()).isEqualTo(ErrorReply.Code.BAD_REQUEST);
            assertThat(answer.getError().getMessage()).isEqualTo("not changed: unknown time zone 'Mars/Olympus' "
                    + "(expected: an IANA zone such as Europe/Berlin)");
        }
    }

    @Test
    void every_sendsEachOccurrenceOnce_underItsOwnId_thenTheSeriesEnds() {
        Recorder bob = new Recorder();
        shared.online(shared.name("bob"), bob);
        Recorder aliceNews = new Recorder();
        CimClient alice = shared.online(shared.name("alice"), aliceNews);

        ScheduledMessage series = alice.schedule(Recipient.user(shared.name("bob")), "tick",
                When.every("1s").times(3)).join();

        assertThat(series.isRecurring()).isTrue();
        assertThat(series.occurrence()).isEqualTo(1);
        List<ChatMessage> ticks = bob.awaitMessages(3);
        assertThat(ticks).extracting(ChatMessage::id)
                .containsExactly(series.id() + ".1", series.id() + ".2", series.id() + ".3");
        assertThat(ticks).extracting(m -> m.delay().occurrence()).containsExactly(1, 2, 3);
        for (ChatMessage tick : ticks) {
            assertThat(tick.sentAt()).as("never early").isAfterOrEqualTo(tick.delay().dueAt());
        }
        await("the series ends").atMost(Recorder.WAIT).until(() -> alice.scheduled().join().isEmpty());
        assertThat(alice.sent(10).join()).extracting(e -> e.message().occurrence()).containsExactly(3, 2, 1);
        assertThat(bob.messages).hasSize(3);
    }

    @Test
    void whenOnline_goesAtTheRecipientsNextLogin_afterWhatTheirInboxHeld_once() {
        shared.online(shared.name("bob"), new Recorder()).close(); // bob has an account, and is gone
        CimClient alice = shared.online(shared.name("alice"), new Recorder());
        alice.send(Recipient.user(shared.name("bob")), "while you were out").join();

        ScheduledMessage waiting = alice.schedule(Recipient.user(shared.name("bob")), "welcome back",
                When.online()).join();
        assertThat(waiting.isWhenOnline()).isTrue();
        assertThat(alice.scheduled().join()).extracting(ScheduledMessage::id).containsExactly(waiting.id());

        Recorder bob = new Recorder();
        shared.online(shared.name("bob"), bob);

        List<ChatMessage> received = bob.awaitMessages(2);
        assertThat(received).extracting(ChatMessage::text).containsExactly("while you were out", "welcome back");
        assertThat(received.get(1).delay().whenOnline()).isTrue();
        await("it leaves alice's list").atMost(Recorder.WAIT).until(() -> alice.scheduled().join().isEmpty());
        Recorder later = new Recorder();
        shared.online(shared.name("bob"), later);
        shared.online(shared.name("bob"), new Recorder()).onlineUsers().join(); // a round trip after the login
        assertThat(later.texts()).doesNotContain("welcome back");
    }

    @Test
    void whenOnline_toSomeoneOnline_goesAtOnce_andToAGroup_isRefused() {
        Recorder bob = new Recorder();
        shared.online(shared.name("bob"), bob);
        CimClient alice = shared.online(shared.name("alice"), new Recorder());

        alice.schedule(Recipient.user(shared.name("bob")), "you are here", When.online()).join();

        assertThat(bob.awaitText("you are here").delay().whenOnline()).isTrue();
        assertThatThrownBy(() -> alice.schedule(Recipient.group("team"), "x", When.online()).join()).cause()
                .isInstanceOf(CimException.class)
                .hasMessageContaining("'online' waits for one user to log in (expected: @user)");
    }

    @Test
    void theirTimeOfDay_isReadInTheRecipientsZone_andTheListShowsTheirZone() {
        CimClient bob = shared.online(shared.name("bob"), new Recorder());
        bob.setZone(ZoneId.of("Asia/Tokyo")).join();
        CimClient alice = shared.online(shared.name("alice"), new Recorder());
        alice.setZone(ZoneId.of("Europe/Berlin")).join();

        ScheduledMessage theirs = alice.schedule(Recipient.user(shared.name("bob")), "good morning",
                When.theirTimeOfDay("9:00")).join();
        ScheduledMessage mine = alice.schedule(Recipient.user(shared.name("bob")), "my morning",
                When.timeOfDay("9:00", null)).join();

        assertThat(theirs.dueAt().atZone(ZoneId.of("Asia/Tokyo")).toLocalTime()).isEqualTo(LocalTime.of(9, 0));
        assertThat(mine.dueAt().atZone(ZoneId.of("Europe/Berlin")).toLocalTime()).isEqualTo(LocalTime.of(9, 0));
        assertThat(Duration.between(Instant.now(), theirs.dueAt())).isBetween(Duration.ZERO, Duration.ofDays(1));
        assertThat(alice.scheduled().join()).allSatisfy(m ->
                assertThat(m.recipientZone()).contains(ZoneId.of("Asia/Tokyo")));
    }

    @Test
    void skip_movesASeriesToTheOccurrenceAfter_andTellsTheOtherTerminals() {
        shared.online(shared.name("bob"), new Recorder());
        Recorder other = new Recorder();
        shared.online(shared.name("alice"), other);
        CimClient alice = shared.online(shared.name("alice"), new Recorder());
        ScheduledMessage series = alice.schedule(Recipient.user(shared.name("bob")), "standup",
                When.every("1d").times(2)).join();

        ScheduledMessage skipped = alice.skip(series.id()).join();

        assertThat(skipped.occurrence()).isEqualTo(2);
        assertThat(skipped.dueAt()).isEqualTo(series.dueAt().plus(Duration.ofDays(1)));
        assertThat(other.awaitChange(ScheduledChange.Kind.SKIPPED).next()).contains(skipped);
        alice.skip(series.id()).join(); // its last: the series ends
        assertThat(alice.scheduled().join()).isEmpty();
        assertThatThrownBy(() -> alice.skip(series.id()).join()).cause().isInstanceOf(CimException.class);
    }

    @Test
    void aRuleTheServerCannotRead_orAnEndWithoutARule_isRefusedSayingWhatIsExpected() {
        try (RawClient alice = RawClient.connect(shared.server().port()).login(shared.name("alice"), 78)) {
            alice.send(Envelopes.schedule(1, shared.name("alice"), "x", 0, 0).toBuilder().setSchedule(
                    Schedule.newBuilder().setRecipient(shared.name("alice")).setText("x")
                            .setTiming(Timing.newBuilder().setEvery("every tuesday"))).build());
            alice.send(Envelopes.schedule(2, shared.name("alice"), "y", 0, 0).toBuilder().setSchedule(
                    Schedule.newBuilder().setRecipient(shared.name("alice")).setText("y")
                            .setTiming(Timing.newBuilder().setTimes(3))).build());

            assertThat(alice.await("the first answer", e -> e.getRequestId() == 1).getError().getMessage())
                    .startsWith("not scheduled: ").contains("expected");
            assertThat(alice.await("the second answer", e -> e.getRequestId() == 2).getError().getMessage())
                    .isEqualTo("not scheduled: times and until end a recurring message (expected: with a rule)");
        }
    }
}
