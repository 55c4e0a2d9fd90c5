package dev.cim.common.schedule;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.format.TextStyle;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Some days of the week at one time of day: {@code weekday 9:00}, {@code weekend 10:30},
 * {@code daily 8:00}, {@code mon,thu 17:30}.
 */
record Weekly(Set<DayOfWeek> days, LocalTime time) implements CalendarRule {

    private static final Set<DayOfWeek> EVERY_DAY = EnumSet.allOf(DayOfWeek.class);
    private static final Set<DayOfWeek> WEEKDAYS = EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY);
    private static final Set<DayOfWeek> WEEKEND = EnumSet.of(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY);

    Weekly {
        days = Set.copyOf(days);
        assert !days.isEmpty() && time.getSecond() == 0 && time.getNano() == 0 : days + " " + time;
    }

    /**
     * {@code days} ({@code weekday}, {@code weekend}, {@code daily}, or a comma list of day names,
     * lower case) at {@code time}.
     *
     * @throws IllegalArgumentException if either is not one
     */
    static Weekly parse(String days, String time) {
        Set<DayOfWeek> set = switch (days) {
            case "daily" -> EVERY_DAY;
            case "weekday" -> WEEKDAYS;
            case "weekend" -> WEEKEND;
            default -> dayList(days);
        };
        return new Weekly(set, CalendarRule.timeOfDay(time));
    }

    private static Set<DayOfWeek> dayList(String list) {
        Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
        for (String name : list.split(",", -1)) {
            days.add(day(name));
        }
        return days;
    }

    private static DayOfWeek day(String name) {
        for (DayOfWeek day : DayOfWeek.values()) {
            String full = day.name().toLowerCase(Locale.ROOT);
            if (name.equals(full) || name.equals(full.substring(0, 3))) {
                return day;
            }
        }
        throw new IllegalArgumentException("unknown day '" + name + "' (expected: weekday, weekend, daily,"
                + " or a comma list of mon tue wed thu fri sat sun or their full names)");
    }

    @Override
    public boolean firesOn(LocalDate day) {
        return days.contains(day.getDayOfWeek());
    }

    @Override
    public int firstMinuteFrom(int minuteOfDay) {
        return CalendarRule.once(time, minuteOfDay);
    }

    /** {@code every weekday at 09:00}, {@code every day at ...}, {@code every Monday and Thursday at ...}. */
    @Override
    public String describe() {
        String when = days.equals(EVERY_DAY) ? "day" : days.equals(WEEKDAYS) ? "weekday" : names(TextStyle.FULL, ", ", " and ");
        return "every " + when + " at " + CalendarRule.clock(time);
    }

    /** {@code daily}, {@code weekday} or {@code weekend} where the days are those, else a list in week order. */
    @Override
    public String spec() {
        String when = days.equals(EVERY_DAY) ? "daily" : days.equals(WEEKDAYS) ? "weekday"
                : days.equals(WEEKEND) ? "weekend" : names(TextStyle.SHORT, ",", ",").toLowerCase(Locale.ROOT);
        return when + " " + CalendarRule.clock(time);
    }

    /** The days' English names in week order, the last two apart by {@code lastSeparator}. */
    private String names(TextStyle style, String separator, String lastSeparator) {
        List<String> names = EnumSet.copyOf(days).stream().map(day -> day.getDisplayName(style, Locale.ENGLISH)).toList();
        int last = names.size() - 1;
        return last == 0 ? names.get(0) : String.join(separator, names.subList(0, last)) + lastSeparator + names.get(last);
    }
}
