package dev.cim.common.schedule;

import java.time.LocalDate;
import java.util.List;

/**
 * A five-field cron expression, {@code minute hour day-of-month month day-of-week}, read as the
 * classic (Vixie) cron reads it; the grammar is {@link Recurrence}'s. Each field is held as a bit
 * set of the values it matches; {@code expression} is the text, lower case and single-spaced, which
 * is what {@link #spec()} gives back.
 *
 * <p>Why not Spring's {@code CronExpression}: it is on this module's class path only as an optional
 * dependency, so the programs using this package would not all have it; it reads six fields
 * (seconds first), with Quartz's extras ({@code L}, {@code W}, {@code #}, {@code ?}) that a port to
 * another language would have to follow; it requires both day fields to match where cron requires
 * either; and across DST it skips a day whose time falls in the skipped hour and fires twice in a
 * repeated hour (Spring 7.0: {@code 0 30 2 * * *} in Europe/Berlin has no occurrence on 2026-03-29
 * and two on 2026-10-25), where this package's rule is once, at the jump and at the first pass.
 *
 * @param dayOfMonthStar the day-of-month field begins with {@code *}
 * @param dayOfWeekStar the day-of-week field begins with {@code *}
 */
record Cron(String expression, long minutes, long hours, long daysOfMonth, long months, long daysOfWeek,
        boolean dayOfMonthStar, boolean dayOfWeekStar) implements CalendarRule {

    private enum Field {
        MINUTE("minute", 0, 59, List.of()),
        HOUR("hour", 0, 23, List.of()),
        DAY_OF_MONTH("day-of-month", 1, 31, List.of()),
        MONTH("month", 1, 12, List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")),
        DAY_OF_WEEK("day-of-week", 0, 7, List.of("sun", "mon", "tue", "wed", "thu", "fri", "sat"));

        final String label;
        final int min;
        final int max;
        final List<String> names; // names.get(i) is min + i

        Field(String label, int min, int max, List<String> names) {
            this.label = label;
            this.min = min;
            this.max = max;
            this.names = names;
        }

        IllegalArgumentException refuse(String text, String problem, String expected) {
            return new IllegalArgumentException("cron " + label + " '" + text + "' " + problem + " (expected: " + expected + ")");
        }

        String expected() {
            return min + " to " + max + (names.isEmpty() ? "" : " or " + names.get(0) + " to " + names.get(names.size() - 1));
        }
    }

    /**
     * The expression of five {@code fields} (lower case).
     *
     * @throws IllegalArgumentException if a field is not one, saying which
     */
    static Cron parse(String[] fields) {
        assert fields.length == 5;
        long weekdays = bits(Field.DAY_OF_WEEK, fields[4]);
        if ((weekdays & 1L << 7) != 0) {
            weekdays = weekdays & ~(1L << 7) | 1; // 7 is Sunday, as 0 is
        }
        return new Cron(String.join(" ", fields), bits(Field.MINUTE, fields[0]), bits(Field.HOUR, fields[1]),
                bits(Field.DAY_OF_MONTH, fields[2]), bits(Field.MONTH, fields[3]), weekdays,
                fields[2].startsWith("*"), fields[4].startsWith("*"));
    }

    /** The values {@code text} matches in {@code field}, as bits: bit v set when it matches v. */
    private static long bits(Field field, String text) {
        long bits = 0;
        for (String item : text.split(",", -1)) {
            int slash = item.indexOf('/');
            String range = slash < 0 ? item : item.substring(0, slash);
            int step = slash < 0 ? 1 : step(field, item.substring(slash + 1));
            int dash = range.indexOf('-');
            int low;
            int high;
            if (range.equals("*")) {
                low = field.min;
                high = field.max;
            } else if (dash >= 0) {
                low = value(field, range.substring(0, dash), false);
                high = value(field, range.substring(dash + 1), true);
                if (low > high) {
                    throw field.refuse(item, "is a backward range", "low-high with low at most high");
                }
            } else if (slash < 0) {
                low = value(field, range, false);
                high = low;
            } else {
                throw field.refuse(item, "has a step without a range", "*/step or low-high/step");
            }
            for (int v = low; v <= high; v += step) {
                bits |= 1L << v;
            }
        }
        return bits;
    }

    /** A number or a name; {@code sun} is 7 at the end of a range ({@code fri-sun}), else 0. */
    private static int value(Field field, String text, boolean rangeEnd) {
        int named = field.names.indexOf(text);
        if (named >= 0) {
            return field == Field.DAY_OF_WEEK && named == 0 && rangeEnd ? 7 : field.min + named;
        }
        int number = number(text);
        if (number < 0) {
            throw field.refuse(text, "is not a value", field.expected());
        }
        if (number < field.min || number > field.max) {
            throw field.refuse(text, "is out of range", field.expected());
        }
        return number;
    }

    private static int step(Field field, String text) {
        int step = number(text);
        if (step < 1 || step > field.max) {
            throw field.refuse(text, "is not a step", "1 to " + field.max);
        }
        return step;
    }

    /** {@code text} as a number of one or two digits, or -1. */
    private static int number(String text) {
        return text.matches("\\d{1,2}") ? Integer.parseInt(text) : -1;
    }

    @Override
    public boolean firesOn(LocalDate day) {
        if ((months & 1L << day.getMonthValue()) == 0) {
            return false;
        }
        boolean dayOfMonth = (daysOfMonth & 1L << day.getDayOfMonth()) != 0;
        boolean dayOfWeek = (daysOfWeek & 1L << day.getDayOfWeek().getValue() % 7) != 0;
        return dayOfMonthStar || dayOfWeekStar ? dayOfMonth && dayOfWeek : dayOfMonth || dayOfWeek;
    }

    @Override
    public int firstMinuteFrom(int minuteOfDay) {
        for (int hour = minuteOfDay / 60; hour < 24; hour++) {
            if ((hours & 1L << hour) != 0) {
                long left = minutes & -1L << (hour == minuteOfDay / 60 ? minuteOfDay % 60 : 0);
                if (left != 0) {
                    return hour * 60 + Long.numberOfTrailingZeros(left);
                }
            }
        }
        return -1;
    }

    @Override
    public String describe() {
        return "cron \"" + expression + "\"";
    }

    @Override
    public String spec() {
        return expression;
    }
}
