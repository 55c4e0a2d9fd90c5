package dev.cim.client.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cim.client.core.Recipient;
import dev.cim.client.core.When;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The scheduling commands of issue 28 as typed: {@code :delay ... online}, {@code :every}, zones, late policies, {@code :skip}, {@code :tz}, {@code :sent}. */
class ScheduleParserTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    private static final ZoneId TOKYO = ZoneId.of("Asia/Tokyo");
    /** Saturday 2027-03-27, 10:00 in Paris (UTC+1). */
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2027-03-27T09:00:00Z"), PARIS);
    private static final Recipient BOB = Recipient.user("bob");

    private final CommandParser parser = new CommandParser(Duration.ofDays(30), 100, CLOCK);

    // :delay ... online

    @Test
    void delayOnline_isSentWhenTheUserNextLogsIn() throws Exception {
        assertThat(parser.parse(":delay @bob welcome   back online"))
                .isEqualTo(new Command.Schedule(BOB, "welcome   back", When.online()));
    }

    @Test
    void delayOnlineUntil_anAmount_isADeadlineThatFarFromNow() throws Exception {
        assertThat(parser.parse(":delay @bob hi online until 2d"))
                .isEqualTo(new Command.Schedule(BOB, "hi", When.online(CLOCK.instant().plus(Duration.ofDays(2)))));
    }

    @Test
    void delayOnlineUntil_aDate_isTheEndOfThatDayInTheUsersZone() throws Exception {
        Instant endOfMarch31 = ZonedDateTime.of(2027, 4, 1, 0, 0, 0, 0, PARIS).toInstant().minusNanos(1);

        assertThat(parser.parse(":delay @bob hi online until 2027-03-31"))
                .isEqualTo(new Command.Schedule(BOB, "hi", When.online(endOfMarch31)));
    }

    @Test
    void delay_theWordOnlineInsideTheText_isText() throws Exception {
        assertThat(parser.parse(":delay I am online now 5m"))
                .isEqualTo(new Command.Delay(Recipient.EVERYONE, "I am online now", Duration.ofMinutes(5)));
    }

    // late policies

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {":delay @bob text 10m late drop 1m", ":delay @bob text 10m late drop after 1m"})
    void delay_lateDropAtTheEnd_dropsItIfLaterThanThat(String line) throws Exception {
        assertThat(parser.parse(line)).isEqualTo(new Command.Schedule(BOB, "text",
                When.in(Duration.ofMinutes(10)).dropLateAfter(Duration.ofMinutes(1))));
    }

    @Test
    void delay_lateSend_isTheDefault_andAPlainDelay() throws Exception {
        assertThat(parser.parse(":delay @bob text 10m late send"))
                .isEqualTo(new Command.Delay(BOB, "text", Duration.ofMinutes(10)));
        assertThat(parser.parse(":delay we are running late 5m"))
                .isEqualTo(new Command.Delay(Recipient.EVERYONE, "we are running late", Duration.ofMinutes(5)));
    }

    @Test
    void at_lateDropAfterTheTime_isAnAtThatMayBeDropped() throws Exception {
        Instant half5 = ZonedDateTime.of(2027, 3, 27, 17, 30, 0, 0, PARIS).toInstant();

        assertThat(parser.parse(":at 17:30 late drop 5m @bob call me"))
                .isEqualTo(new Command.Schedule(BOB, "call me", When.at(half5).dropLateAfter(Duration.ofMinutes(5))));
        assertThat(parser.parse(":at 12:00 late lunch?")).as("'late' not followed by send or drop is text")
                .isEqualTo(new Command.At(Recipient.EVERYONE, "late lunch?", ZonedDateTime.of(2027, 3, 27, 12, 0, 0, 0, PARIS)));
    }

    // :at with a zone

    @Test
    void at_their_isTheRecipientsClock_withTheUsersZoneForWhenTheyHaveNone() throws Exception {
        assertThat(parser.parse(":at 9:00 their @bob good morning"))
                .isEqualTo(new Command.Schedule(BOB, "good morning", When.theirTimeOfDay("09:00").zone(PARIS)));
        assertThat(parser.parse(":at 9:00 their late drop 10m @bob hi")).isEqualTo(new Command.Schedule(BOB, "hi",
                When.theirTimeOfDay("09:00").zone(PARIS).dropLateAfter(Duration.ofMinutes(10))));
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', value = {
        ":at 17:30 Asia/Tokyo @bob call|17:30|Asia/Tokyo",
        ":at 17:30 asia/tokyo @bob call|17:30|Asia/Tokyo",
        ":at tomorrow 9:00 Asia/Tokyo @bob call|2027-03-28 09:00|Asia/Tokyo",
        ":at today 23:00 UTC @bob call|2027-03-27 23:00|UTC",
        ":at 2027-04-01 08:15:30 Europe/London @bob call|2027-04-01 08:15:30|Europe/London",
        ":at 09:00 UTC @bob call|09:00|UTC",
        ":at 9:00 +09:00 @bob call|09:00|+09:00",
    })
    void at_aZone_isTheTimeOnThatClock_placedByTheServer(String line, String time, String zone) throws Exception {
        assertThat(parser.parse(line)).isEqualTo(new Command.Schedule(BOB, "call", When.timeOfDay(time, ZoneId.of(zone))));
    }

    @Test
    void at_everyoneBeforeAZoneLikeWord_keepsItAsText() throws Exception {
        assertThat(parser.parse(":at 17:30 @everyone UTC rocks")).isEqualTo(new Command.At(Recipient.EVERYONE,
                "UTC rocks", ZonedDateTime.of(2027, 3, 27, 17, 30, 0, 0, PARIS)));
        assertThat(parser.parse(":at 17:30 and/or +5 hi")).as("not zones: no IANA area, an offset without its colon")
                .isEqualTo(new Command.At(Recipient.EVERYONE, "and/or +5 hi", ZonedDateTime.of(2027, 3, 27, 17, 30, 0, 0, PARIS)));
    }

    // :every

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', value = {
        ":every 10s hi|10s",
        ":every 2h hi|2h",
        ":every 1d hi|1d",
        ":every 60s hi|1m",
        ":every weekday 9:00 hi|weekday 9:00",
        ":every mon,thu 17:30 hi|mon,thu 17:30",
        ":every 1st 10:00 hi|1st 10:00",
        ":every last 18:00 hi|last 18:00",
        ":every \"0 9 * * 1-5\" hi|0 9 * * 1-5",
        ":every \"weekday 9:00\" hi|weekday 9:00",
    })
    void every_eachRuleForm_inTheUsersZone(String line, String rule) throws Exception {
        assertThat(parser.parse(line)).isEqualTo(new Command.Schedule(Recipient.EVERYONE, "hi", When.every(rule).zone(PARIS)));
    }

    @Test
    void every_theIssuesExample_threeTicksTwoSecondsApart() throws Exception {
        assertThat(parser.parse(":every 2s times 3 @bob tick"))
                .isEqualTo(new Command.Schedule(BOB, "tick", When.every("2s").zone(PARIS).times(3)));
    }

    @Test
    void every_endsAndALatePolicy_beforeTheRecipient() throws Exception {
        Instant endOf2027 = ZonedDateTime.of(2028, 1, 1, 0, 0, 0, 0, PARIS).toInstant().minusNanos(1);

        assertThat(parser.parse(":every weekday 9:00 until 2027-12-31 #team standup")).isEqualTo(new Command.Schedule(
                Recipient.group("team"), "standup", When.every("weekday 9:00").zone(PARIS).until(endOf2027)));
        assertThat(parser.parse(":every 1d until 30d times 5 late drop after 10m @bob x")).isEqualTo(new Command.Schedule(BOB,
                "x", When.every("1d").zone(PARIS).until(CLOCK.instant().plus(Duration.ofDays(30))).times(5)
                        .dropLateAfter(Duration.ofMinutes(10))));
        assertThat(parser.parse(":every \"0 9 * * 1-5\" late send @bob standup"))
                .isEqualTo(new Command.Schedule(BOB, "standup", When.every("0 9 * * 1-5").zone(PARIS)));
    }

    @Test
    void every_andAt_readTheZoneInEffectWhenTheLineIsTyped() throws Exception {
        ZoneId[] account = {PARIS};
        CommandParser following = new CommandParser(Duration.ofDays(30), 100, CLOCK, () -> account[0]);
        account[0] = TOKYO; // :tz Asia/Tokyo, heard after the parser was made

        assertThat(following.parse(":every weekday 9:00 hi"))
                .isEqualTo(new Command.Schedule(Recipient.EVERYONE, "hi", When.every("weekday 9:00").zone(TOKYO)));
        assertThat(following.parse(":at 19:00 hi")).as("it is 18:00 in Tokyo")
                .isEqualTo(new Command.At(Recipient.EVERYONE, "hi", ZonedDateTime.of(2027, 3, 27, 19, 0, 0, 0, TOKYO)));
        assertThatThrownBy(() -> following.parse(":at 17:30 hi")).hasMessageStartingWith("17:30 has passed (it is 2027-03-27 18:00)");
    }

    // :skip :tz :sent

    @Test
    void skipTzAndSent() throws Exception {
        assertThat(parser.parse(":skip 3")).isEqualTo(new Command.Skip(3));
        assertThat(parser.parse(":skip #3")).isEqualTo(new Command.Skip(3));
        assertThat(parser.parse(":tz")).isEqualTo(new Command.ShowZone());
        assertThat(parser.parse(":tz Europe/Berlin")).isEqualTo(new Command.SetZone(ZoneId.of("Europe/Berlin")));
        assertThat(parser.parse(":tz asia/tokyo")).isEqualTo(new Command.SetZone(TOKYO));
        assertThat(parser.parse(":sent")).isEqualTo(new Command.ListSent(20));
        assertThat(parser.parse(":sent 5")).isEqualTo(new Command.ListSent(5));
    }

    // Refusals.

    @ParameterizedTest(name = "''{0}'' fails with ''{1}''")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        ":delay #team x online|'online' waits for one user to log in (expected: :delay @user <text> online [until <end>])",
        ":delay hi online|'online' waits for one user to log in (expected: :delay @user <text> online [until <end>])",
        ":delay @everyone hi online|'online' waits for one user to log in (expected: :delay @user <text> online [until <end>])",
        ":delay @bob hi online until|the end is missing (expected: until 2d, until 2026-12-31 or until 2026-12-31T18:00)",
        ":delay @bob hi online until soon|'soon' is not an end (expected: a date such as 2026-12-31, a date and time such as 2026-12-31T18:00, or an amount ahead such as 30d, 12h or 2w)",
        ":delay @bob hi online until 2027-01-01|2027-01-01 is in the past (expected: an end ahead)",
        ":delay @bob hi online until 60d|60d is more than 30d ahead, the maximum (cim.client.max-delay)",
        ":delay @bob hi online late drop 1m|a late policy is for a time, and 'online' has none (expected: :delay @user <text> online [until <end>], without late drop)",
        ":delay @bob online|`the text is missing; usage: :delay [@user|#group] <text> <delay>, e.g. :delay see you soon 5m`",
        ":delay hi 10m late drop|the late limit is missing (expected: late send, or late drop <duration> such as late drop 5m)",
        ":delay hi 10m late drop soon|'soon' is not a late limit (expected: late send, or late drop <duration> such as late drop 5m)",
        ":delay hi 10m late drop 0|the late limit must be more than 0 (expected: late send, or late drop <duration> such as late drop 5m)",
        ":delay hi late drop 1m|`the delay is missing; usage: :delay [@user|#group] <text> <delay>, e.g. :delay see you soon 5m`",
        ":at 9:00 their #team hi|'their' reads the time on the recipient's clock, so it needs one user (expected: :at <time> their @user <text>; for a text that starts with 'their': :at <time> @everyone their ...)",
        ":at 9:00 their hi|'their' reads the time on the recipient's clock, so it needs one user (expected: :at <time> their @user <text>; for a text that starts with 'their': :at <time> @everyone their ...)",
        ":at 9:00 Asia/Tokio @bob hi|unknown time zone 'Asia/Tokio' (expected: an IANA zone such as Europe/Berlin)",
        ":at 2027-03-01 09:00 Asia/Tokyo hi|2027-03-01 09:00 is in the past (expected: a time ahead)",
        ":at 2027-05-01 09:00 Asia/Tokyo hi|2027-05-01 09:00 is more than 30d ahead, the maximum (cim.client.max-delay)",
        ":at 9:00 UTC|`the text is missing; usage: :at <time> [@user|#group] <text>, e.g. :at 17:30 @bob call me`",
        ":at 9:00 UTC late drop x @bob hi|'x' is not a late limit (expected: late send, or late drop <duration> such as late drop 5m)",
        ":at 25:00 UTC hi|'25:00' is not a time of day (expected: 00:00 to 23:59)",
        ":every|`the rule and the text are missing; usage: :every <rule> [until <end>|times <N>] [late drop <duration>] [@user|#group] <text>, e.g. :every weekday 9:00 @bob standup`",
        ":every 2s|`the text is missing; usage: :every <rule> [until <end>|times <N>] [late drop <duration>] [@user|#group] <text>, e.g. :every weekday 9:00 @bob standup`",
        ":every 2s times 3 @bob|`the text is missing; usage: :every <rule> [until <end>|times <N>] [late drop <duration>] [@user|#group] <text>, e.g. :every weekday 9:00 @bob standup`",
        ":every 500ms hi|'500ms' is not a recurrence (expected: an interval such as 90s, 5m, 2h, 1d or 1w; weekday, weekend, daily or days such as mon,thu, then H:MM; 1st to 31st or last, then H:MM; or five cron fields such as 0 9 * * 1-5)",
        ":every 0s hi|interval '0s' is out of range (expected: 1s to 400d)",
        ":every weekday standup|'standup' is not a time of day (expected: H:MM or HH:MM, 0:00 to 23:59)",
        ":every \"0 9 * * 1-5 @bob x|the closing quote of the rule is missing (expected: a cron expression in double quotes, e.g. :every \"0 9 * * 1-5\" @bob standup)",
        ":every 0 9 * * 1-5 @bob standup|a cron expression goes in double quotes (expected: :every \"0 9 * * 1-5\" ...)",
        ":every \"61 * * * *\" hi|cron minute '61' is out of range (expected: 0 to 59)",
        ":every 2s times 0 hi|'0' is not a number of times (expected: times 1 or more, e.g. times 3)",
        ":every 2s times|the number of times is missing (expected: times 1 or more, e.g. times 3)",
        ":every 2s until 2027-01-01 hi|2027-01-01 is in the past (expected: an end ahead)",
        ":every 2s until 2d until 3d hi|'until' twice (expected: one until, one times, or one of each)",
        ":every 2s late drop -1m hi|'-1m' is not a late limit (expected: late send, or late drop <duration> such as late drop 5m)",
        ":skip|the number is missing; usage: :skip <number> (numbers are listed by :delays)",
        ":skip x|'x' is not a number; usage: :skip <number> (numbers are listed by :delays)",
        ":tz Mars/Olympus|unknown time zone 'Mars/Olympus' (expected: an IANA zone such as Europe/Berlin)",
        ":tz Europe/Berlin now|one zone, please, got 'Europe/Berlin now'; usage: :tz [<zone>], e.g. :tz Europe/Berlin",
        ":sent 0|'0' is not a number from 1 to 200; usage: :sent [n] (n at most 200)",
        ":sent 500|'500' is not a number from 1 to 200; usage: :sent [n] (n at most 200)",
        ":sent all 5|'all 5' is not a number from 1 to 200; usage: :sent [n] (n at most 200)",
    })
    void badInput_failsWithOneLineSayingWhatWasExpected(String line, String message) {
        assertThatThrownBy(() -> parser.parse(line)).isInstanceOf(CommandException.class).hasMessage(message);
    }

    @Test
    void anySequenceOfScheduleWords_givesACommandOrAOneLineCommandExceptionAndNothingElse() {
        Random random = new Random(28);
        List<String> starts = List.of(":delay", ":at", ":every", ":skip", ":tz", ":sent");
        List<String> vocabulary = List.of("online", "until", "times", "late", "drop", "after", "send", "their", "UTC",
                "Asia/Tokyo", "Asia/Tokio", "2d", "0", "3", "-1", "2027-03-28", "2027-03-28T09:00", "9:00", "tomorrow",
                "today", "weekday", "last", "1st", "\"0", "9", "*", "1-5\"", "\"", "@bob", "#team", "@", "#", "hi",
                "5m", "500ms", "0s", "1.5", "+09:00", "\u2003", "\u202e", "x".repeat(101));
        for (int i = 0; i < 30_000; i++) {
            StringBuilder line = new StringBuilder(starts.get(random.nextInt(starts.size())));
            for (int n = random.nextInt(9); n > 0; n--) {
                line.append(' ').append(vocabulary.get(random.nextInt(vocabulary.size())));
            }
            try {
                assertThat(parser.parse(line.toString())).isNotNull();
            } catch (CommandException expected) {
                assertThat(expected.getMessage()).as("the error for '%s'", line).isNotBlank().doesNotContain("\n");
            }
        }
    }
}
