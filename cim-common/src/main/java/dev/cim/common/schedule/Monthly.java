package dev.cim.common.schedule;

import java.time.LocalDate;
import java.time.LocalTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One day of each month at one time of day: {@code 15th 12:00}, or {@code last 18:00}. A month
 * without the day fires on its last day ({@code 31st} in April on the 30th), so {@code 31st} and
 * {@code last} are one rule, whose canonical form is {@code last}.
 */
record Monthly(int day, LocalTime time) implements CalendarRule {

    private static final Pattern ORDINAL = Pattern.compile("(\\d+)(st|nd|rd|th)");
    private static final int LAST = 31;

    Monthly {
        assert day >= 1 && day <= LAST && time.getSecond() == 0 && time.getNano() == 0 : day + " " + time;
    }

    /** True when {@code word} starts a monthly rule: an ordinal or {@code last} (lower case). */
    static boolean starts(String word) {
        return word.equals("last") || !word.isEmpty() && Character.isDigit(word.charAt(0));
    }

    /**
     * The day {@code day} ({@code 1st} to {@code 31st}, any of the suffixes st, nd, rd and th
     * accepted, or {@code last}; lower case) of each month at {@code time}.
     *
     * @throws IllegalArgumentException if either is not one
     */
    static Monthly parse(String day, String time) {
        Matcher m = ORDINAL.matcher(day);
        int number = day.equals("last") ? LAST : m.matches() && m.group(1).length() <= 2 ? Integer.parseInt(m.group(1)) : 0;
        if (number < 1 || number > LAST) {
            throw new IllegalArgumentException("'" + day
                    + "' is not a day of the month (expected: 1st to 31st, or last)");
        }
        return new Monthly(number, CalendarRule.timeOfDay(time));
    }

    @Override
    public boolean firesOn(LocalDate date) {
        return date.getDayOfMonth() == Math.min(day, date.lengthOfMonth());
    }

    @Override
    public int firstMinuteFrom(int minuteOfDay) {
        return CalendarRule.once(time, minuteOfDay);
    }

    /** {@code every month on the 15th at 12:00}, {@code every month on the last day at 18:00}. */
    @Override
    public String describe() {
        return "every month on the " + (day == LAST ? "last day" : ordinal()) + " at " + CalendarRule.clock(time);
    }

    @Override
    public String spec() {
        return (day == LAST ? "last" : ordinal()) + " " + CalendarRule.clock(time);
    }

    private String ordinal() {
        int lastDigit = day % 10;
        boolean teen = day / 10 == 1;
        String suffix = teen || lastDigit == 0 || lastDigit > 3 ? "th" : new String[] {"st", "nd", "rd"}[lastDigit - 1];
        return day + suffix;
    }
}
