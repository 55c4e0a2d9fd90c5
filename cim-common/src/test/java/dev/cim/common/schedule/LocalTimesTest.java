package dev.cim.common.schedule;

import static dev.cim.common.schedule.RecurrenceNextTest.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** "9:00 in a zone" to an instant, zone names, and instants shown as a clock shows them. */
class LocalTimesTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    @ParameterizedTest(name = "[{0}] at {1}: {2}")
    @CsvSource({
        "9:00, 2026-06-10T08:00+02:00, 2026-06-10T09:00+02:00", // today, still ahead
        "09:00, 2026-06-10T10:00+02:00, 2026-06-11T09:00+02:00", // tomorrow
        "9:00, 2026-06-10T09:00+02:00, 2026-06-11T09:00+02:00", // strictly after now
        "09:00:30, 2026-06-10T09:00+02:00, 2026-06-10T09:00:30+02:00",
        "0:00, 2026-06-10T23:59+02:00, 2026-06-11T00:00+02:00",
        "2:30, 2026-03-28T12:00+01:00, 2026-03-29T03:00+02:00", // skipped: at the jump
        "2:30, 2026-03-29T03:10+02:00, 2026-03-30T02:30+02:00",
        "2:30, 2026-10-24T12:00+02:00, 2026-10-25T02:30+02:00", // repeated: the first pass
        "2:30, 2026-10-25T02:30+02:00, 2026-10-26T02:30+01:00", // and not the second
        "' 18:00 ', 2026-06-10T08:00+02:00, 2026-06-10T18:00+02:00",
    })
    void nextAt_timeOfDayInBerlin_nextInstantShowingIt(String time, String now, String expected) {
        assertThat(LocalTimes.nextAt(time, BERLIN, at(now))).isEqualTo(at(expected));
    }

    @Test
    void nextAt_repeatedHourInNewYork_firstPass() {
        assertThat(LocalTimes.nextAt("1:30", NEW_YORK, at("2026-11-01T00:00-04:00")))
                .isEqualTo(at("2026-11-01T01:30-04:00"));
        assertThat(LocalTimes.nextAt("2:30", NEW_YORK, at("2026-03-08T00:00-05:00")))
                .isEqualTo(at("2026-03-08T03:00-04:00"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-12-24 18:00", "2026-12-24T18:00", "2026-12-24t18:00:00"})
    void nextAt_dateTimeAhead_thatInstant(String dateTime) {
        assertThat(LocalTimes.nextAt(dateTime, BERLIN, at("2026-06-10T08:00+02:00")))
                .isEqualTo(at("2026-12-24T18:00+01:00"));
    }

    @Test
    void nextAt_dateTimeInThePast_refused() {
        assertThatThrownBy(() -> LocalTimes.nextAt("2026-01-01 18:00", BERLIN, at("2026-06-10T08:00+02:00")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("2026-01-01 18:00 is in the past (expected: a time ahead)");
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"25:00", "9", "9:5", "noon", "2026-13-01 10:00", "2026-12-24", "2026-12-24 24:00"})
    void nextAt_notATime_refused(String time) {
        assertThatThrownBy(() -> LocalTimes.nextAt(time, BERLIN, at("2026-06-10T08:00+02:00")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("is not a time (expected: H:MM, HH:MM or HH:MM:SS,"
                        + " or a date and time such as 2026-12-24 18:00)");
    }

    @ParameterizedTest(name = "[{0}] is {1}")
    @CsvSource({
        "Europe/Berlin, Europe/Berlin",
        "europe/berlin, Europe/Berlin",
        "' ASIA/TOKYO ', Asia/Tokyo",
        "america/new_york, America/New_York",
        "UTC, UTC",
        "utc, UTC",
        "Z, Z",
        "z, Z",
        "+02:00, +02:00",
    })
    void zone_knownName_thatZone(String name, String id) {
        assertThat(LocalTimes.zone(name)).isEqualTo(ZoneId.of(id));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"Mars/Base", "Berlin", "+25:00"})
    void zone_unknownName_refused(String name) {
        assertThatThrownBy(() -> LocalTimes.zone(name))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("(expected: an IANA zone such as Europe/Berlin)");
        if ("Mars/Base".equals(name)) {
            assertThatThrownBy(() -> LocalTimes.zone(name))
                    .hasMessage("unknown time zone 'Mars/Base' (expected: an IANA zone such as Europe/Berlin)");
        }
    }

    @Test
    void show_instantInZone_clockAndZoneName() {
        assertThat(LocalTimes.show(at("2026-11-26T08:00Z"), BERLIN)).isEqualTo("2026-11-26 09:00:00 CET");
        assertThat(LocalTimes.show(at("2026-10-25T00:30Z"), BERLIN)).isEqualTo("2026-10-25 02:30:00 CEST");
        assertThat(LocalTimes.show(at("2026-10-25T01:30Z"), BERLIN)).isEqualTo("2026-10-25 02:30:00 CET");
        assertThat(LocalTimes.show(at("2026-11-26T08:00Z"), ZoneOffset.UTC)).isEqualTo("2026-11-26 08:00:00 Z");
    }
}
