package dev.cim.client.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TimeParserTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    /** Saturday 2027-03-27, 10:00 in Paris (UTC+1); on Sunday at 02:00 the clocks go forward to 03:00. */
    private static final ZonedDateTime NOW = ZonedDateTime.now(Clock.fixed(Instant.parse("2027-03-27T09:00:00Z"), PARIS));

    @ParameterizedTest(name = "''{0}'' is {1}, {2} word(s)")
    @CsvSource(delimiter = '|', value = {
        "17:30|2027-03-27T17:30+01:00[Europe/Paris]|1",
        "17:30:15|2027-03-27T17:30:15+01:00[Europe/Paris]|1",
        "10:00:01|2027-03-27T10:00:01+01:00[Europe/Paris]|1",
        "today 17:30|2027-03-27T17:30+01:00[Europe/Paris]|2",
        "today 23:59:59|2027-03-27T23:59:59+01:00[Europe/Paris]|2",
        "tomorrow 9:00|2027-03-28T09:00+02:00[Europe/Paris]|2",
        "tomorrow 0:00|2027-03-28T00:00+01:00[Europe/Paris]|2",
        "tomorrow 01:59 and the text|2027-03-28T01:59+01:00[Europe/Paris]|2",
        "tomorrow 03:00|2027-03-28T03:00+02:00[Europe/Paris]|2",
        "2027-12-31 23:59|2027-12-31T23:59+01:00[Europe/Paris]|2",
        "2027-04-01 08:15:30|2027-04-01T08:15:30+02:00[Europe/Paris]|2",
    })
    void parse_acceptedForm_isThatTimeInTheUsersZone(String text, String expected, int words) throws Exception {
        TimeParser.Parsed parsed = TimeParser.parse(words(text), NOW);

        assertThat(parsed.when()).isEqualTo(ZonedDateTime.parse(expected));
        assertThat(parsed.words()).isEqualTo(words);
    }

    @Test
    void parse_onlyTheTimeWords_areTaken() throws Exception {
        assertThat(TimeParser.parse(words("17:30 @bob call me"), NOW).words()).isEqualTo(1);
        assertThat(TimeParser.parse(words("tomorrow 17:30 17:45"), NOW).words()).isEqualTo(2);
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', value = {
        "10:00|10:00 has passed (it is 2027-03-27 10:00); for tomorrow: tomorrow 10:00",
        "9:05|9:05 has passed (it is 2027-03-27 10:00); for tomorrow: tomorrow 9:05",
        "00:00|00:00 has passed (it is 2027-03-27 10:00); for tomorrow: tomorrow 00:00",
        "today 9:59:59|today 9:59:59 has passed (it is 2027-03-27 10:00)",
        "2027-01-05 09:00|2027-01-05 09:00 has passed (it is 2027-03-27 10:00)",
        "1999-12-31 23:59|1999-12-31 23:59 has passed (it is 2027-03-27 10:00)",
    })
    void parse_timeThatHasPassed_isRefused(String text, String message) {
        assertThatThrownBy(() -> TimeParser.parse(words(text), NOW)).isInstanceOf(CommandException.class)
                .hasMessage(message);
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "soon|'soon' is not a time (expected HH:MM, today HH:MM, tomorrow HH:MM or YYYY-MM-DD HH:MM)",
        "today|'today' is not a time (expected HH:MM, today HH:MM, tomorrow HH:MM or YYYY-MM-DD HH:MM)",
        "next week|'next' is not a time (expected HH:MM, today HH:MM, tomorrow HH:MM or YYYY-MM-DD HH:MM)",
        "17h30|'17h30' is not a time (expected HH:MM, today HH:MM, tomorrow HH:MM or YYYY-MM-DD HH:MM)",
        "12:5 pm|'12:5' is not a time (expected HH:MM, today HH:MM, tomorrow HH:MM or YYYY-MM-DD HH:MM)",
        "tomorrow noon|'noon' is not a time of day (expected HH:MM, today HH:MM, tomorrow HH:MM or YYYY-MM-DD HH:MM)",
        "tomorrow 9|'9' is not a time of day (expected HH:MM, today HH:MM, tomorrow HH:MM or YYYY-MM-DD HH:MM)",
        "25:00|'25:00' is not a time of day (expected: 00:00 to 23:59)",
        "24:00|'24:00' is not a time of day (expected: 00:00 to 23:59)",
        "tomorrow 24:00|'24:00' is not a time of day (expected: 00:00 to 23:59)",
        "12:60|'12:60' is not a time of day (expected: 00:00 to 23:59)",
        "12:30:60|'12:30:60' is not a time of day (expected: 00:00 to 23:59)",
        "2027-02-30 10:00|'2027-02-30' is not a date (expected: YYYY-MM-DD, e.g. 2027-01-05)",
        "2027-13-01 10:00|'2027-13-01' is not a date (expected: YYYY-MM-DD, e.g. 2027-01-05)",
        "2027-4-1 10:00|'2027-4-1' is not a time (expected HH:MM, today HH:MM, tomorrow HH:MM or YYYY-MM-DD HH:MM)",
    })
    void parse_unreadable_isRefusedSayingWhatWasExpected(String text, String message) {
        assertThatThrownBy(() -> TimeParser.parse(words(text), NOW)).isInstanceOf(CommandException.class)
                .hasMessage(message);
    }

    @Test
    void parse_noWords_saysTheTimeIsMissing() {
        assertThatThrownBy(() -> TimeParser.parse(List.of(), NOW)).isInstanceOf(CommandException.class)
                .hasMessageStartingWith("the time is missing (expected");
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"tomorrow 02:30", "2027-03-28 02:30", "tomorrow 2:00", "2027-03-28 02:59:59"})
    void parse_timeInTheDaylightSavingGap_isRefused(String text) {
        assertThatThrownBy(() -> TimeParser.parse(words(text), NOW)).isInstanceOf(CommandException.class)
                .hasMessage(text + " does not exist in Europe/Paris: the clocks go forward from 02:00 to 03:00 that day"
                        + " (expected: a time outside that hour)");
    }

    @Test
    void parse_timeInTheDaylightSavingOverlap_isTheEarlierOfTheTwo() throws Exception {
        // 2027-10-31: at 03:00 (UTC+2) the clocks go back to 02:00 (UTC+1); 02:30 happens twice.
        ZonedDateTime when = TimeParser.parse(words("2027-10-31 02:30"), NOW).when();

        assertThat(when.getOffset()).isEqualTo(ZoneOffset.ofHours(2));
        assertThat(when.toInstant()).isEqualTo(Instant.parse("2027-10-31T00:30:00Z"));
    }

    @Test
    void parse_inAnotherZone_readsTheClockOfThatZone() throws Exception {
        ZonedDateTime tokyoNow = NOW.withZoneSameInstant(ZoneId.of("Asia/Tokyo")); // 18:00 there

        assertThat(TimeParser.parse(words("19:00"), tokyoNow).when().toInstant())
                .isEqualTo(Instant.parse("2027-03-27T10:00:00Z"));
        assertThatThrownBy(() -> TimeParser.parse(words("17:30"), tokyoNow)).hasMessageContaining("has passed");
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource({"17:30, true", "9:05:01, true", "today, true", "tomorrow, true", "2027-01-05, true", "soon, false",
        "17h, false", "@bob, false", "5m, false"})
    void startsTime_tellsTimesFromDelays(String word, boolean time) {
        assertThat(TimeParser.startsTime(word)).isEqualTo(time);
    }

    private static List<String> words(String text) {
        return Arrays.asList(text.strip().split("\\s+"));
    }
}
