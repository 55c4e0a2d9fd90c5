/**
 * Repeating schedules, as people type them, and their due times: pure {@code java.time}, no
 * threads, no clock (every "now" is an argument), so the server and the console compute the same
 * instants, and the grammar can be written again in another language (a web page).
 *
 * <ul>
 *   <li>{@link dev.cim.common.schedule.Recurrence}: a rule ({@code 2h}, {@code weekday 9:00},
 *       {@code 15th 12:00}, {@code last 18:00}, {@code 0 9 * * 1-5}), parsed, described, and asked
 *       for its next occurrence. Its javadoc is the grammar.</li>
 *   <li>{@link dev.cim.common.schedule.Series}: a rule from a start, in a zone, with an end
 *       ({@code until}, {@code times}); its numbered {@link dev.cim.common.schedule.Occurrence}s,
 *       and which one is due after an outage.</li>
 *   <li>{@link dev.cim.common.schedule.LocalTimes}: "9:00 in Europe/Berlin" as an instant, zone
 *       names, and instants shown as a clock shows them. It states the DST rule everything here
 *       follows: a skipped time happens at the jump, a repeated one once, at its first pass.</li>
 * </ul>
 */
package dev.cim.common.schedule;
