package dev.cim.common.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Next occurrences: across the DST transitions of 2026 in Europe/Berlin (03-29 02:00→03:00,
 * 10-25 03:00→02:00) and America/New_York (03-08 02:00→03:00, 11-01 02:00→01:00), month ends,
 * and cron's day rules. Expected instants are written with their offsets, so each says which pass
 * of a repeated hour it is.
 */
class RecurrenceNextTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    private static final Instant ANY_START = Instant.parse("2020-01-01T00:00:00Z");

    static Stream<Arguments> dstCrossings() {
        List<String> at0230 = List.of("daily 2:30", "30 2 * * *");
        List<String> at0130 = List.of("daily 1:30", "30 1 * * *");
        return Stream.of(
                // spring forward: the skipped 02:30 goes at the jump, 03:00 local; then 02:30 again
                Arguments.of(at0230, BERLIN, "2026-03-27T12:00+01:00",
                        List.of("2026-03-28T02:30+01:00", "2026-03-29T03:00+02:00", "2026-03-30T02:30+02:00")),
                Arguments.of(at0230, NEW_YORK, "2026-03-06T12:00-05:00",
                        List.of("2026-03-07T02:30-05:00", "2026-03-08T03:00-04:00", "2026-03-09T02:30-04:00")),
                // fall back: the repeated time fires once, at its first pass
                Arguments.of(at0230, BERLIN, "2026-10-23T12:00+02:00",
                        List.of("2026-10-24T02:30+02:00", "2026-10-25T02:30+02:00", "2026-10-26T02:30+01:00")),
                Arguments.of(at0130, NEW_YORK, "2026-10-30T12:00-04:00",
                        List.of("2026-10-31T01:30-04:00", "2026-11-01T01:30-04:00", "2026-11-02T01:30-05:00")),
                // a rule firing within the repeated hour fires in its first pass only
                Arguments.of(List.of("*/30 * * * *"), BERLIN, "2026-10-25T01:00+02:00",
                        List.of("2026-10-25T01:30+02:00", "2026-10-25T02:00+02:00", "2026-10-25T02:30+02:00",
                                "2026-10-25T03:00+01:00", "2026-10-25T03:30+01:00")),
                // and within the skipped hour, all its times go at the jump, once
                Arguments.of(List.of("*/30 * * * *"), BERLIN, "2026-03-29T01:00+01:00",
                        List.of("2026-03-29T01:30+01:00", "2026-03-29T03:00+02:00", "2026-03-29T03:30+02:00")));
    }

    @ParameterizedTest(name = "{0} in {1} from {2}")
    @MethodSource("dstCrossings")
    void next_acrossDst_skippedAtTheJumpRepeatedOnce(List<String> specs, ZoneId zone, String from, List<String> expected) {
        for (String spec : specs) {
            assertThat(occurrences(Recurrence.parse(spec), zone, at(from), expected.size()))
                    .as(spec)
                    .containsExactlyElementsOf(expected.stream().map(RecurrenceNextTest::at).toList());
        }
    }

    @ParameterizedTest(name = "1h from {0}")
    @MethodSource("transitionDays")
    void next_hourlyIntervalAcrossDst_exactly3600sApart(String start) {
        List<Instant> hours = occurrences(Recurrence.parse("1h"), BERLIN, at(start), 6, at(start));

        for (int i = 0; i < hours.size(); i++) {
            assertThat(hours.get(i)).isEqualTo(at(start).plusSeconds(3600L * (i + 1)));
        }
    }

    static Stream<String> transitionDays() {
        return Stream.of("2026-03-29T00:00+01:00", "2026-10-25T00:00+02:00",
                "2026-03-08T00:00-05:00", "2026-11-01T00:00-04:00");
    }

    @Test
    void next_interval_firstIsOneIntervalAfterTheStartThenStrictlyAfter() {
        Recurrence every2s = Recurrence.parse("2s");
        Instant start = Instant.parse("2026-05-01T10:00:00.5Z");

        assertThat(every2s.next(start, BERLIN, start)).contains(start.plusSeconds(2));
        assertThat(every2s.next(start.minusSeconds(60), BERLIN, start)).contains(start.plusSeconds(2));
        assertThat(every2s.next(start.plusSeconds(2), BERLIN, start)).contains(start.plusSeconds(4));
        assertThat(every2s.next(start.plusMillis(6999), BERLIN, start)).contains(start.plusSeconds(8));
    }

    @Test
    void next_weekly_strictlyAfterAnOccurrence() {
        Recurrence weekday = Recurrence.parse("weekday 9:00");

        assertThat(weekday.next(at("2026-03-06T09:00+01:00"), BERLIN, ANY_START)) // a Friday
                .contains(at("2026-03-09T09:00+01:00"));
        assertThat(weekday.next(at("2026-03-06T08:59:59.999+01:00"), BERLIN, ANY_START))
                .contains(at("2026-03-06T09:00+01:00"));
    }

    @Test
    void next_31stAcrossAYear_lastDayOfShortMonths() {
        assertThat(occurrences(Recurrence.parse("31st 9:00"), BERLIN, at("2026-01-01T00:00+01:00"), 12))
                .containsExactlyElementsOf(Stream.of("2026-01-31T09:00+01:00", "2026-02-28T09:00+01:00",
                        "2026-03-31T09:00+02:00", "2026-04-30T09:00+02:00", "2026-05-31T09:00+02:00",
                        "2026-06-30T09:00+02:00", "2026-07-31T09:00+02:00", "2026-08-31T09:00+02:00",
                        "2026-09-30T09:00+02:00", "2026-10-31T09:00+01:00", "2026-11-30T09:00+01:00",
                        "2026-12-31T09:00+01:00").map(RecurrenceNextTest::at).toList());
    }

    @Test
    void next_30thAcrossFebruary_lastDayThenThe30th() {
        assertThat(occurrences(Recurrence.parse("30th 12:00"), NEW_YORK, at("2028-01-31T00:00-05:00"), 2))
                .containsExactly(at("2028-02-29T12:00-05:00"), at("2028-03-30T12:00-04:00"));
    }

    @Test
    void next_lastAcrossLeapFebruary_the29th() {
        assertThat(occurrences(Recurrence.parse("last 18:00"), BERLIN, at("2028-01-15T00:00+01:00"), 3))
                .containsExactly(at("2028-01-31T18:00+01:00"), at("2028-02-29T18:00+01:00"),
                        at("2028-03-31T18:00+02:00"));
    }

    @Test
    void next_cronBothDayFieldsRestricted_eitherMatches() {
        // 2026-07-01 is a Wednesday: the 1st, then Mondays
        assertThat(occurrences(Recurrence.parse("0 9 1 * mon"), BERLIN, at("2026-06-30T12:00+02:00"), 3))
                .containsExactly(at("2026-07-01T09:00+02:00"), at("2026-07-06T09:00+02:00"),
                        at("2026-07-13T09:00+02:00"));
    }

    @Test
    void next_cronOneDayFieldStarred_bothMatch() {
        // */10 begins with a star: Mondays that are the 1st, 11th, 21st or 31st
        assertThat(occurrences(Recurrence.parse("0 9 */10 * mon"), BERLIN, at("2026-01-01T00:00+01:00"), 5))
                .containsExactly(at("2026-05-11T09:00+02:00"), at("2026-06-01T09:00+02:00"),
                        at("2026-08-31T09:00+02:00"), at("2026-09-21T09:00+02:00"), at("2026-12-21T09:00+01:00"));
    }

    @Test
    void next_cronMinutesAndHours_inOrderWithinADay() {
        assertThat(occurrences(Recurrence.parse("15,45 9-10 * * *"), BERLIN, at("2026-06-10T09:20+02:00"), 4))
                .containsExactly(at("2026-06-10T09:45+02:00"), at("2026-06-10T10:15+02:00"),
                        at("2026-06-10T10:45+02:00"), at("2026-06-11T09:15+02:00"));
    }

    @Test
    void next_cronOnADayThatNeverComes_emptyAfterABoundedSearch() {
        assertThat(Recurrence.parse("0 0 31 2 *").next(at("2026-01-01T00:00Z"), BERLIN, ANY_START)).isEmpty();
        assertThat(Recurrence.parse("0 0 30 feb *").next(at("2026-01-01T00:00Z"), BERLIN, ANY_START)).isEmpty();
    }

    @Test
    void next_cronOn29February_foundAcrossTheEightYearsWithout2100() {
        assertThat(Recurrence.parse("0 0 29 2 *").next(at("2096-03-01T00:00Z"), ZoneId.of("UTC"), ANY_START))
                .contains(at("2104-02-29T00:00Z"));
    }

    private static List<Instant> occurrences(Recurrence rule, ZoneId zone, Instant from, int count) {
        return occurrences(rule, zone, from, count, ANY_START);
    }

    private static List<Instant> occurrences(Recurrence rule, ZoneId zone, Instant from, int count, Instant start) {
        List<Instant> found = new ArrayList<>();
        Instant after = from;
        for (int i = 0; i < count; i++) {
            after = rule.next(after, zone, start).orElseThrow();
            found.add(after);
        }
        return found;
    }

    static Instant at(String offsetDateTime) {
        return OffsetDateTime.parse(offsetDateTime).toInstant();
    }
}
