package dev.cim.common.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every form of the grammar read, written back in canonical form and described; every other refused. */
class RecurrenceParseTest {

    @ParameterizedTest(name = "[{0}] is {1}")
    @CsvSource(delimiter = '|', textBlock = """
            10s                            | 10s                           | every 10s
            90s                            | 90s                           | every 90s
            60s                            | 1m                            | every 1m
            5m                             | 5m                            | every 5m
            2h                             | 2h                            | every 2h
            1d                             | 1d                            | every 1d
            24h                            | 1d                            | every 1d
            1w                             | 1w                            | every 1w
            14d                            | 2w                            | every 2w
            400d                           | 400d                          | every 400d
            '  2H  '                       | 2h                            | every 2h
            010s                           | 10s                           | every 10s
            weekday 9:00                   | weekday 09:00                 | every weekday at 09:00
            WEEKDAY   09:00                | weekday 09:00                 | every weekday at 09:00
            mon,tue,wed,thu,fri 9:00       | weekday 09:00                 | every weekday at 09:00
            weekend 10:30                  | weekend 10:30                 | every Saturday and Sunday at 10:30
            daily 8:00                     | daily 08:00                   | every day at 08:00
            daily 0:00                     | daily 00:00                   | every day at 00:00
            daily 23:59                    | daily 23:59                   | every day at 23:59
            mon,thu 17:30                  | mon,thu 17:30                 | every Monday and Thursday at 17:30
            Thursday,MONDAY,wed,mon 7:05   | mon,wed,thu 07:05             | every Monday, Wednesday and Thursday at 07:05
            sunday 12:00                   | sun 12:00                     | every Sunday at 12:00
            1st 10:00                      | 1st 10:00                     | every month on the 1st at 10:00
            2nd 9:00                       | 2nd 09:00                     | every month on the 2nd at 09:00
            3rd 9:00                       | 3rd 09:00                     | every month on the 3rd at 09:00
            11st 9:00                      | 11th 09:00                    | every month on the 11th at 09:00
            15th 12:00                     | 15th 12:00                    | every month on the 15th at 12:00
            22th 6:00                      | 22nd 06:00                    | every month on the 22nd at 06:00
            30th 9:00                      | 30th 09:00                    | every month on the 30th at 09:00
            31st 9:00                      | last 09:00                    | every month on the last day at 09:00
            last 18:00                     | last 18:00                    | every month on the last day at 18:00
            0 9 * * 1-5                    | 0 9 * * 1-5                   | cron "0 9 * * 1-5"
            '  */15   9-17 * JAN-mar MON-FRI ' | */15 9-17 * jan-mar mon-fri | cron "*/15 9-17 * jan-mar mon-fri"
            0,30 8-18/2 1,15 * 0           | 0,30 8-18/2 1,15 * 0          | cron "0,30 8-18/2 1,15 * 0"
            """)
    void parse_eachForm_givesCanonicalSpecAndDescription(String input, String spec, String description) {
        Recurrence rule = Recurrence.parse(input);

        assertThat(rule.spec()).isEqualTo(spec);
        assertThat(rule.describe()).isEqualTo(description);
        assertThat(Recurrence.parse(rule.spec())).isEqualTo(rule);
    }

    @ParameterizedTest(name = "[{0}]: {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            0s                  | interval '0s' is out of range (expected: 1s to 400d)
            401d                | interval '401d' is out of range (expected: 1s to 400d)
            58w                 | interval '58w' is out of range (expected: 1s to 400d)
            99999999999999999w  | interval '99999999999999999w' is out of range (expected: 1s to 400d)
            5x                  | '5x' is not a recurrence (expected: an interval such as 90s, 5m, 2h, 1d or 1w; weekday, weekend, daily or days such as mon,thu, then H:MM; 1st to 31st or last, then H:MM; or five cron fields such as 0 9 * * 1-5)
            every               | 'every' is not a recurrence (expected: an interval such as 90s, 5m, 2h, 1d or 1w; weekday, weekend, daily or days such as mon,thu, then H:MM; 1st to 31st or last, then H:MM; or five cron fields such as 0 9 * * 1-5)
            @daily              | '@daily' is not a recurrence (expected: an interval such as 90s, 5m, 2h, 1d or 1w; weekday, weekend, daily or days such as mon,thu, then H:MM; 1st to 31st or last, then H:MM; or five cron fields such as 0 9 * * 1-5)
            weekday 25:00       | '25:00' is not a time of day (expected: H:MM or HH:MM, 0:00 to 23:59)
            weekday 9:60        | '9:60' is not a time of day (expected: H:MM or HH:MM, 0:00 to 23:59)
            weekday 9           | '9' is not a time of day (expected: H:MM or HH:MM, 0:00 to 23:59)
            weekday 9:00:00     | '9:00:00' is not a time of day (expected: H:MM or HH:MM, 0:00 to 23:59)
            mon,xyz 9:00        | unknown day 'xyz' (expected: weekday, weekend, daily, or a comma list of mon tue wed thu fri sat sun or their full names)
            mon,,thu 9:00       | unknown day '' (expected: weekday, weekend, daily, or a comma list of mon tue wed thu fri sat sun or their full names)
            every 2s            | unknown day 'every' (expected: weekday, weekend, daily, or a comma list of mon tue wed thu fri sat sun or their full names)
            32nd 9:00           | '32nd' is not a day of the month (expected: 1st to 31st, or last)
            0th 9:00            | '0th' is not a day of the month (expected: 1st to 31st, or last)
            15 9:00             | '15' is not a day of the month (expected: 1st to 31st, or last)
            0 9 * *             | '0 9 * *' has 4 fields (expected: five cron fields, minute hour day-of-month month day-of-week)
            0 0 9 * * *         | '0 0 9 * * *' has 6 fields (expected: five cron fields, minute hour day-of-month month day-of-week)
            60 9 * * *          | cron minute '60' is out of range (expected: 0 to 59)
            0 24 * * *          | cron hour '24' is out of range (expected: 0 to 23)
            0 9 0 * *           | cron day-of-month '0' is out of range (expected: 1 to 31)
            0 9 * 13 *          | cron month '13' is out of range (expected: 1 to 12 or jan to dec)
            0 9 * * 8           | cron day-of-week '8' is out of range (expected: 0 to 7 or sun to sat)
            0 9 * * mon-xyz     | cron day-of-week 'xyz' is not a value (expected: 0 to 7 or sun to sat)
            0 9 L * *           | cron day-of-month 'l' is not a value (expected: 1 to 31)
            0 9 ? * mon         | cron day-of-month '?' is not a value (expected: 1 to 31)
            0 9 * * 1#2         | cron day-of-week '1#2' is not a value (expected: 0 to 7 or sun to sat)
            0 9,,10 * * *       | cron hour '' is not a value (expected: 0 to 23)
            */0 9 * * *         | cron minute '0' is not a step (expected: 1 to 59)
            5/10 9 * * *        | cron minute '5/10' has a step without a range (expected: */step or low-high/step)
            0 17-9 * * *        | cron hour '17-9' is a backward range (expected: low-high with low at most high)
            """)
    void parse_malformed_refusedSayingWhatWasExpected(String input, String message) {
        assertThatThrownBy(() -> Recurrence.parse(input))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "   "})
    void parse_nothing_refusedSayingWhatWasExpected(String input) {
        assertThatThrownBy(() -> Recurrence.parse(input))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("'' is not a recurrence (expected: an interval such as 90s");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0 9 * * 0", "0 9 * * 7", "0 9 * * sun"})
    void parse_sundayAsZeroSevenOrName_sameDays(String input) {
        Cron cron = (Cron) Recurrence.parse(input);

        assertThat(cron.daysOfWeek()).isEqualTo(1L);
    }

    @ParameterizedTest
    @CsvSource({"'0 9 * * fri-sun', 1100001", "'0 9 * * 5-7', 1100001", "'0 9 * * */2', 1010101"})
    void parse_dayOfWeekRanges_sevenFoldsIntoSunday(String input, String saturdayToSunday) {
        Cron cron = (Cron) Recurrence.parse(input);

        assertThat(Long.toBinaryString(cron.daysOfWeek())).isEqualTo(saturdayToSunday);
    }
}
