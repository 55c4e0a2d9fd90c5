package dev.cim.client.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.client.core.Recipient;
import dev.cim.client.core.ScheduledChange;
import dev.cim.client.core.ScheduledMessage;
import dev.cim.client.core.SentEntry;
import dev.cim.client.core.When;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ScheduleViewTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    private static final ZoneId TOKYO = ZoneId.of("Asia/Tokyo");
    /** 2027-03-27 14:05:30 in Paris (CET, UTC+1); 22:05:30 in Tokyo. */
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2027-03-27T13:05:30Z"), PARIS);
    private static final Recipient BOB = Recipient.user("bob");
    private static final Instant NO_DEADLINE = Instant.ofEpochMilli(Long.MAX_VALUE);

    private final RecordingConsole console = new RecordingConsole();
    private final List<String> lines = console.lines;
    private final UserZone zone = new UserZone(PARIS);
    private final ScheduleView view = new ScheduleView(console, new Times(CLOCK, zone));

    // :delays

    @Test
    void listed_oneOff_showsNumberDueTimeRecipientAndInertText() {
        view.listed(new ScheduledMessage("0000000000000001-7", 7, BOB, "call\u001B[2J me",
                Instant.parse("2027-03-27T16:30:00Z"), Duration.ofHours(3)));
        view.listed(new ScheduledMessage("0000000000000001-8", 8, Recipient.EVERYONE, "lunch?",
                Instant.parse("2027-03-28T10:00:00Z"), Duration.ofHours(21)));

        assertThat(lines).containsExactly(
                "  #7  17:30:00  to @bob  call^[[2J me",
                "  #8  2027-03-28 12:00  to everyone  lunch?");
    }

    @Test
    void listed_recipientInAnotherZone_showsTheDueTimeOnBothClocks() {
        Instant due = Instant.parse("2027-03-27T14:00:00Z");
        view.listed(message(4, "good morning", due, When.timeOfDay("23:00", TOKYO), 0, Optional.of(TOKYO)));
        view.listed(message(5, "tomorrow there", Instant.parse("2027-03-27T16:00:00Z"), When.theirTimeOfDay("1:00"), 0,
                Optional.of(TOKYO)));
        view.listed(message(6, "same clock", due, When.theirTimeOfDay("15:00"), 0, Optional.of(ZoneId.of("Europe/Berlin"))));

        assertThat(lines).containsExactly(
                "  #4  15:00:00 CET (23:00:00 JST their time)  to @bob  good morning",
                "  #5  17:00:00 CET (2027-03-28 01:00 JST their time)  to @bob  tomorrow there",
                "  #6  15:00:00  to @bob  same clock");
    }

    @Test
    void listed_series_showsItsRuleItsNextOccurrenceAndItsEnds() {
        view.listed(message(5, "tick", Instant.parse("2027-03-27T13:05:32Z"), When.every("2s").times(3), 2,
                Optional.empty()));
        Instant endOf2027 = Instant.parse("2027-12-31T22:59:59Z");
        view.listed(new ScheduledMessage("0000000000000001-6", 6, Recipient.group("team"), "standup",
                Instant.parse("2027-03-29T07:00:00Z"), Duration.ZERO, When.every("weekday 9:00").until(endOf2027)
                        .dropLateAfter(Duration.ofMinutes(10)), 1, Optional.empty()));

        assertThat(lines).containsExactly(
                "  #5  14:05:32, every 2s, next #2 of 3  to @bob  tick",
                "  #6  2027-03-29 09:00, every weekday at 09:00, next #1, until 2027-12-31 23:59, dropped if over 10m late"
                        + "  to #team  standup");
    }

    @Test
    void listed_whenOnline_saysItWaitsForTheLogin_andItsDeadline() {
        view.listed(message(9, "welcome back", NO_DEADLINE, When.online(), 0, Optional.empty()));
        Instant deadline = Instant.parse("2027-03-29T08:00:00Z");
        view.listed(message(10, "are you there?", deadline, When.online(deadline), 0, Optional.of(TOKYO)));

        assertThat(lines).containsExactly(
                "  #9  when bob logs in  to @bob  welcome back",
                "  #10  when bob logs in, until 2027-03-29 10:00  to @bob  are you there?");
    }

    @Test
    void listed_afterTheAccountsZoneIsSet_isOnItsClock() {
        zone.follow(() -> Optional.of(TOKYO));

        view.listed(message(4, "good morning", Instant.parse("2027-03-27T14:00:00Z"), When.theirTimeOfDay("15:00"), 0,
                Optional.of(PARIS)));

        assertThat(lines).containsExactly("  #4  23:00:00 JST (15:00:00 CET their time)  to @bob  good morning");
    }

    // scheduled here

    @Test
    void scheduled_saysWhenAndHowSoon_forEachKind() {
        view.scheduled(new ScheduledMessage("0000000000000001-3", 3, BOB, "call me", Instant.parse("2027-03-27T16:30:00Z"),
                Duration.ofHours(3)));
        view.scheduled(message(4, "hi", Instant.parse("2027-03-27T14:00:00Z"), When.theirTimeOfDay("23:00"), 0,
                Optional.of(TOKYO)));
        view.scheduled(message(5, "tick", Instant.parse("2027-03-27T13:05:32Z"), When.every("2s").times(3), 1,
                Optional.empty()));
        view.scheduled(message(6, "hi", Instant.parse("2027-03-27T13:15:30Z"),
                When.in(Duration.ofMinutes(10)).dropLateAfter(Duration.ofMinutes(1)), 0, Optional.empty()));
        view.scheduled(message(9, "welcome back", NO_DEADLINE, When.online(), 0, Optional.empty()));
        Instant deadline = Instant.parse("2027-03-29T08:00:00Z");
        view.scheduled(message(10, "there?", deadline, When.online(deadline), 0, Optional.empty()));

        assertThat(lines).containsExactly(
                "scheduled message #3 to @bob will be sent at 17:30:00 (in 3h24m30s); it is kept by the server",
                "scheduled message #4 to @bob will be sent at 15:00:00 CET (23:00:00 JST their time), in 54m30s; "
                        + "it is kept by the server",
                "scheduled message #5 to @bob: every 2s, 3 times; the first at 14:05:32 (in 2s); it is kept by the server",
                "scheduled message #6 to @bob will be sent at 14:15:30 (in 10m), dropped if over 1m late; "
                        + "it is kept by the server",
                "scheduled message #9 to @bob will be sent when bob logs in (at once if online now); "
                        + "it is kept by the server",
                "scheduled message #10 to @bob will be sent when bob logs in (at once if online now); dropped if not by "
                        + "2027-03-29 10:00; it is kept by the server");
    }

    @Test
    void skipped_saysTheNextOccurrence_orThatTheSeriesHasEnded() {
        When rule = When.every("2s").times(3);
        ScheduledMessage second = message(5, "tick", Instant.parse("2027-03-27T13:05:32Z"), rule, 2, Optional.empty());
        ScheduledMessage third = message(5, "tick", Instant.parse("2027-03-27T13:05:34Z"), rule, 3, Optional.empty());

        view.skipped(second, third);
        view.skipped(third, third);

        assertThat(lines).containsExactly(
                "skipped occurrence 2 of #5; next: occurrence 3 at 14:05:34",
                "skipped occurrence 3 of #5; that was its last: the series has ended");
    }

    // :sent

    @Test
    void record_eachOutcome_withHowLateWhyAndAShortenedInertText() {
        Instant due = Instant.parse("2027-03-27T13:05:32Z");
        ScheduledMessage tick = message(5, "tick", due, When.every("2s"), 2, Optional.empty());
        view.record(new SentEntry(tick, ScheduledChange.Kind.SENT, due.plusMillis(200), ""));
        view.record(new SentEntry(message(5, "tick", due, When.every("1m"), 10, Optional.empty()), ScheduledChange.Kind.SENT,
                due.plus(Duration.ofMinutes(10)), "9 occurrences missed while the server was down; sent the latest, 10m late"));
        ScheduledMessage call = message(3, "call me", Instant.parse("2027-03-27T10:00:00Z"), When.at(due), 0, Optional.empty());
        view.record(new SentEntry(call, ScheduledChange.Kind.FAILED, Instant.parse("2027-03-27T10:00:00Z"),
                "not sent: the inbox of bob is full"));
        view.record(new SentEntry(call, ScheduledChange.Kind.DROPPED, Instant.parse("2027-03-27T10:03:00Z"),
                "not sent: it would have gone 3m late, past its limit of 1m\u001B[2J"));
        view.record(new SentEntry(message(9, "welcome back", NO_DEADLINE, When.online(), 0, Optional.empty()),
                ScheduledChange.Kind.SENT, Instant.parse("2027-03-27T13:00:00Z"), ""));
        view.record(new SentEntry(message(11, "a long text\nthat goes on and on and on", due, When.at(due), 0,
                Optional.empty()), ScheduledChange.Kind.SENT, due, ""));

        assertThat(lines).containsExactly(
                "  #5 (occurrence 2)  to @bob  tick  due 14:05:32  sent 14:05:32 (late 0.2s)",
                "  #5 (occurrence 10)  to @bob  tick  due 14:05:32  sent 14:15:32 (late 10m; 9 occurrences missed while "
                        + "the server was down; sent the latest, 10m late)",
                "  #3  to @bob  call me  due 11:00:00  failed: the inbox of bob is full",
                "  #3  to @bob  call me  due 11:00:00  dropped: it would have gone 3m late, past its limit of 1m^[[2J",
                "  #9  to @bob  welcome back  when bob logs in  sent 14:00:00",
                "  #11  to @bob  a long text^Jthat goes on an...  due 14:05:32  sent 14:05:32 (late 0.0s)");
    }

    @Test
    void late_tenthsOfASecondUnderAMinute_thenRounded() {
        assertThat(ScheduleView.late(Duration.ofMillis(-5))).isEqualTo("0.0s");
        assertThat(ScheduleView.late(Duration.ofMillis(249))).isEqualTo("0.2s");
        assertThat(ScheduleView.late(Duration.ofMillis(59_940))).isEqualTo("59.9s");
        assertThat(ScheduleView.late(Duration.ofSeconds(603))).isEqualTo("10m3s");
    }

    // news

    @Test
    void change_ofASeries_saysTheOccurrenceTheNoteAndWhatComesNext() {
        When rule = When.every("2s").times(5);
        ScheduledMessage fourth = message(5, "tick", Instant.parse("2027-03-27T13:05:38Z"), rule, 4, Optional.empty());
        ScheduledMessage fifth = message(5, "tick", Instant.parse("2027-03-27T13:05:40Z"), rule, 5, Optional.empty());

        view.change(new ScheduledChange(ScheduledChange.Kind.SENT, fourth,
                "2 occurrences missed while the server was down; sent the latest, 3s late", Optional.of(fifth)));
        view.change(new ScheduledChange(ScheduledChange.Kind.SENT, fifth, "", Optional.empty()));
        view.change(new ScheduledChange(ScheduledChange.Kind.SKIPPED, fourth, "", Optional.of(fifth)));
        view.change(new ScheduledChange(ScheduledChange.Kind.SKIPPED, fifth, "", Optional.empty()));
        view.change(new ScheduledChange(ScheduledChange.Kind.DROPPED, fourth,
                "not sent: it would have gone 3s late, past its limit of 1s", Optional.of(fifth)));

        assertThat(lines).containsExactly(
                "scheduled message #5 to @bob was sent (occurrence 4; 2 occurrences missed while the server was down; "
                        + "sent the latest, 3s late); next: occurrence 5 at 14:05:40",
                "scheduled message #5 to @bob was sent (occurrence 5); the series has ended",
                "scheduled message #5 to @bob: occurrence 4 was skipped on another terminal; next: occurrence 5 at 14:05:40",
                "scheduled message #5 to @bob: occurrence 5 was skipped on another terminal; the series has ended",
                "scheduled message #5 to @bob was dropped: it would have gone 3s late, past its limit of 1s; "
                        + "next: occurrence 5 at 14:05:40");
    }

    @Test
    void change_ofAWhenOnlineMessage_saysWhoItWaitsFor() {
        ScheduledMessage waiting = message(9, "welcome back", NO_DEADLINE, When.online(), 0, Optional.empty());

        view.change(new ScheduledChange(ScheduledChange.Kind.SCHEDULED, waiting));
        view.change(new ScheduledChange(ScheduledChange.Kind.SENT, waiting));
        view.change(new ScheduledChange(ScheduledChange.Kind.DROPPED, waiting,
                "not sent: bob did not log in by its deadline\u001B]2;x\u0007"));

        assertThat(lines).containsExactly(
                "scheduled message #9 to @bob was scheduled on another terminal, for when bob logs in",
                "scheduled message #9 to @bob was sent (bob logged in)",
                "scheduled message #9 to @bob was dropped: bob did not log in by its deadline^[]2;x^G");
    }

    private static ScheduledMessage message(long number, String text, Instant due, When when, int occurrence,
            Optional<ZoneId> recipientZone) {
        return new ScheduledMessage("0000000000000001-" + number, number, BOB, text, due, Duration.ZERO, when, occurrence,
                recipientZone);
    }
}
