package dev.cim.common.schedule;

import static dev.cim.common.schedule.RecurrenceNextTest.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Series: numbered occurrences, their ends ({@code times}, {@code until}), and outages. */
class RecurrenceSeriesTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final Instant START = at("2026-01-01T00:00+01:00");

    @Test
    void first_interval_oneIntervalAfterTheStart() {
        Series series = new Series(Recurrence.parse("2s"), BERLIN, START, null, 0);

        assertThat(series.first()).contains(new Occurrence(1, START.plusSeconds(2)));
        assertThat(series.after(series.first().orElseThrow())).contains(new Occurrence(2, START.plusSeconds(4)));
    }

    @Test
    void after_weekdaySeriesOf400Days_oneOccurrencePerWeekdayAt0900InOrder() {
        Instant until = START.plus(Duration.ofDays(400));
        Series series = new Series(Recurrence.parse("weekday 9:00"), BERLIN, START, until, 0);

        List<Occurrence> all = all(series);

        long weekdays = LocalDate.of(2026, 1, 1).datesUntil(LocalDate.of(2027, 2, 5))
                .filter(day -> day.getDayOfWeek().getValue() <= DayOfWeek.FRIDAY.getValue())
                .count();
        assertThat(all).hasSize((int) weekdays).hasSize(286);
        for (int i = 0; i < all.size(); i++) {
            Occurrence occurrence = all.get(i);
            assertThat(occurrence.index()).isEqualTo(i + 1);
            assertThat(occurrence.at().atZone(BERLIN).toLocalTime()).isEqualTo(LocalTime.of(9, 0));
            assertThat(occurrence.at().atZone(BERLIN).getDayOfWeek().getValue()).isLessThanOrEqualTo(5);
            if (i > 0) {
                assertThat(occurrence.at()).isAfter(all.get(i - 1).at());
            }
        }
    }

    @Test
    void after_times3_endsAfterTheThird() {
        Series series = new Series(Recurrence.parse("daily 8:00"), BERLIN, START, null, 3);

        assertThat(all(series)).extracting(Occurrence::at).containsExactly(
                at("2026-01-01T08:00+01:00"), at("2026-01-02T08:00+01:00"), at("2026-01-03T08:00+01:00"));
    }

    @Test
    void after_until_inclusive() {
        Series series = new Series(Recurrence.parse("1h"), BERLIN, START, START.plusSeconds(3 * 3600), 0);

        assertThat(all(series)).extracting(Occurrence::index).containsExactly(1, 2, 3);
    }

    @Test
    void first_untilBeforeTheFirstOccurrence_none() {
        Series series = new Series(Recurrence.parse("1h"), BERLIN, START, START.plusSeconds(3599), 0);

        assertThat(series.first()).isEmpty();
    }

    @Test
    void latestDue_1sAfterA400DayOutage_latestBeforeNowArithmeticallyAndFast() {
        Series series = new Series(Recurrence.parse("1s"), BERLIN, START, null, 0);
        Occurrence current = series.first().orElseThrow();
        Instant now = START.plus(Duration.ofDays(400)).plusMillis(500);

        long began = System.nanoTime();
        Optional<Occurrence> latest = series.latestDue(current, now);
        Duration took = Duration.ofNanos(System.nanoTime() - began);

        int expectedIndex = 400 * 86_400;
        assertThat(latest).contains(new Occurrence(expectedIndex, START.plusSeconds(expectedIndex)));
        assertThat(took).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void latestDue_intervalPastTimesOrUntil_theLastThatExists() {
        Instant now = START.plus(Duration.ofDays(10));
        Series times = new Series(Recurrence.parse("1s"), BERLIN, START, null, 100);
        Series until = new Series(Recurrence.parse("1m"), BERLIN, START, START.plusSeconds(3630), 0);

        assertThat(times.latestDue(times.first().orElseThrow(), now)).contains(new Occurrence(100, START.plusSeconds(100)));
        assertThat(until.latestDue(until.first().orElseThrow(), now)).contains(new Occurrence(60, START.plusSeconds(3600)));
    }

    @Test
    void latestDue_weekdayAfterA10DayOutage_lastWeekday0900BeforeNow() {
        Series series = new Series(Recurrence.parse("weekday 9:00"), BERLIN, at("2026-03-01T12:00+01:00"), null, 0);
        Occurrence current = series.first().orElseThrow(); // Monday 2026-03-02 09:00
        Instant now = at("2026-03-12T08:00+01:00"); // Thursday, before 09:00

        assertThat(current.at()).isEqualTo(at("2026-03-02T09:00+01:00"));
        // Mon 2, Tue 3, Wed 4, Thu 5, Fri 6, Mon 9, Tue 10, Wed 11
        assertThat(series.latestDue(current, now)).contains(new Occurrence(8, at("2026-03-11T09:00+01:00")));
    }

    @Test
    void latestDue_cronEveryMinuteAfterA3DayOutage_walksToTheLatest() {
        Series series = new Series(Recurrence.parse("* * * * *"), BERLIN, START, null, 0);

        Optional<Occurrence> latest = series.latestDue(series.first().orElseThrow(), START.plus(Duration.ofDays(3)));

        assertThat(latest).contains(new Occurrence(3 * 1440, START.plus(Duration.ofDays(3))));
    }

    @Test
    void latestDue_nothingMissed_current() {
        Series series = new Series(Recurrence.parse("daily 8:00"), BERLIN, START, null, 0);
        Occurrence current = series.first().orElseThrow();

        assertThat(series.latestDue(current, current.at())).contains(current);
        assertThat(series.latestDue(current, current.at().plusSeconds(3600))).contains(current);
    }

    @Test
    void latestDue_currentPastTheEnd_empty() {
        Series series = new Series(Recurrence.parse("daily 8:00"), BERLIN, START, null, 2);

        assertThat(series.latestDue(new Occurrence(3, at("2026-01-03T08:00+01:00")), at("2026-01-05T00:00+01:00")))
                .isEmpty();
    }

    @Test
    void latestDue_currentNotDueYet_refused() {
        Series series = new Series(Recurrence.parse("daily 8:00"), BERLIN, START, null, 0);
        Occurrence current = series.first().orElseThrow();

        assertThatThrownBy(() -> series.latestDue(current, current.at().minusMillis(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("(expected: an occurrence at or before now)");
    }

    @Test
    void new_badEnds_refused() {
        Recurrence rule = Recurrence.parse("1h");

        assertThatThrownBy(() -> new Series(rule, BERLIN, START, START.minusSeconds(1), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("(expected: an end at or after the start, or none)");
        assertThatThrownBy(() -> new Series(rule, BERLIN, START, null, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("times -1 (expected: a count of 1 or more, or 0 for no limit)");
    }

    @ParameterizedTest(name = "[{0}] ends at {1}")
    @CsvSource({
        "2026-12-31, 2026-12-31T23:59:59.999999999+01:00",
        "2026-12-31T18:00, 2026-12-31T18:00+01:00",
        "2026-12-31 18:00, 2026-12-31T18:00+01:00",
        "' 2027-03-28t02:30 ', 2027-03-28T03:00+02:00", // in the skipped hour: at the jump
        "30d, 2026-07-01T10:00+02:00",
        "12h, 2026-06-01T22:00+02:00",
        "2w, 2026-06-15T10:00+02:00",
    })
    void parseUntil_eachForm_theInstantInTheZone(String text, String expected) {
        assertThat(Series.parseUntil(text, BERLIN, at("2026-06-01T10:00+02:00"))).isEqualTo(at(expected));
    }

    @ParameterizedTest(name = "[{0}]: {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            tomorrow          | 'tomorrow' is not an end (expected: a date such as 2026-12-31, a date and time such as 2026-12-31T18:00, or an amount ahead such as 30d, 12h or 2w)
            2026-02-30        | '2026-02-30' is not an end (expected: a date such as 2026-12-31, a date and time such as 2026-12-31T18:00, or an amount ahead such as 30d, 12h or 2w)
            2026-12-31T25:00  | '2026-12-31T25:00' is not an end (expected: a date such as 2026-12-31, a date and time such as 2026-12-31T18:00, or an amount ahead such as 30d, 12h or 2w)
            500d              | end '500d' is out of range (expected: 1s to 400d)
            2026-05-31        | 2026-05-31 is in the past (expected: an end ahead)
            2026-06-01T10:00  | 2026-06-01T10:00 is in the past (expected: an end ahead)
            """)
    void parseUntil_malformedOrPast_refused(String text, String message) {
        assertThatThrownBy(() -> Series.parseUntil(text, BERLIN, at("2026-06-01T10:00+02:00")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    private static List<Occurrence> all(Series series) {
        List<Occurrence> all = new ArrayList<>();
        for (Optional<Occurrence> next = series.first(); next.isPresent(); next = series.after(next.get())) {
            all.add(next.get());
        }
        return all;
    }
}
